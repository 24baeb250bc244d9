"""The demo page's language-neutral facts (the words are in `content/<lang>/demo.yaml`)."""

# The consultant who runs the demos: `{{consultant}}` in the words, the organizer of bookings.
CONSULTANT = "Claire Dumontet"
