"""The demo page's language-neutral facts (the words are in `content/<lang>/demo.yaml`)."""

from __future__ import annotations

# The consultant who runs the demos: `{{consultant}}` in the words, the organizer of bookings.
CONSULTANT = "Claire Dumontet"

# The meeting's agenda, in order: each step's minutes (its words: `agenda.steps.<key>` in
# content/<lang>/demo.yaml), but one, None, which takes what the others leave of the meeting's
# length (BOOKING_MEETING_MINUTES): the agenda adds up to the length, whatever it is set to.
AGENDA: dict[str, int | None] = {"context": 5, "demonstration": None, "next_steps": 5}


def agenda_minutes(meeting_minutes: int) -> dict[str, int]:
    """Each step's minutes in a meeting of `meeting_minutes`."""
    if list(AGENDA.values()).count(None) != 1:
        raise ValueError("content/demo.py AGENDA: exactly one step takes the rest of the meeting (None)")
    fixed = sum(minutes for minutes in AGENDA.values() if minutes is not None)
    rest = meeting_minutes - fixed
    if rest <= 0:
        raise ValueError(
            f"a {meeting_minutes}-minute meeting leaves no time for the agenda's open step once its fixed "
            f"steps ({fixed} minutes, content/demo.py AGENDA) are counted: shorten them or lengthen "
            "BOOKING_MEETING_MINUTES"
        )
    return {key: rest if minutes is None else minutes for key, minutes in AGENDA.items()}
