// The built-in demo scheduler (BOOKING_URL empty): the next free slots in the
// visitor's time zone, then the demo form's fields, then a confirmation.
//   GET  /api/v1/booking/slots  -> UTC slot ids, grouped here by day in the visitor's zone (Intl)
//   POST /api/v1/booking        -> 201 booked · 409 taken · 422 errors by field · 429
// Keyboard: days and slots are radio groups (arrow keys move and select, Home/End), the
// selection is announced in a polite live region. The box keeps its 630 px from the first
// paint, so nothing moves when the slots arrive.
import { useEffect, useMemo, useRef, useState } from "react";
import { Link } from "react-router";
import { Announced, FormFields, checkFields, postWithRetries } from "./lead_form.jsx";
import { visitAttribution } from "./site_ui.jsx";

const SLOTS_URL = "/api/v1/booking/slots";
const BOOK_URL = "/api/v1/booking";

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, key) => (key in values ? values[key] : `{${key}}`));
}

function newKey() {
  if (typeof crypto !== "undefined" && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

function visitorZone(fallback) {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || fallback;
  } catch (error) {
    return fallback;
  }
}

// "2026-11-24T08:00Z" -> Date
function startOf(id) {
  return new Date(id.replace("Z", ":00Z"));
}

function groupByDay(ids, zone, locale) {
  const dayKey = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" });
  const dayLabel = new Intl.DateTimeFormat(locale, { timeZone: zone, weekday: "short", day: "numeric", month: "short" });
  const dayLong = new Intl.DateTimeFormat(locale, { timeZone: zone, weekday: "long", day: "numeric", month: "long" });
  const time = new Intl.DateTimeFormat(locale, { timeZone: zone, hour: "2-digit", minute: "2-digit" });
  const days = [];
  for (const id of ids) {
    const start = startOf(id);
    const key = dayKey.format(start);
    if (!days.length || days[days.length - 1].key !== key) {
      days.push({ key, label: dayLabel.format(start), long: dayLong.format(start), slots: [] });
    }
    days[days.length - 1].slots.push({ id, time: time.format(start) });
  }
  return days;
}

// Arrow keys, Home and End inside a radio group: the index to move to, or null.
function moveIndex(key, index, count) {
  if (key === "ArrowRight" || key === "ArrowDown") return (index + 1) % count;
  if (key === "ArrowLeft" || key === "ArrowUp") return (index - 1 + count) % count;
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  return null;
}

function RadioGroup({ label, items, selected, onSelect, onActivate, className, itemClass, refs }) {
  const selectedIndex = Math.max(0, items.findIndex((item) => item.value === selected));
  const onKeyDown = (event) => {
    const next = moveIndex(event.key, selectedIndex, items.length);
    if (next !== null) {
      event.preventDefault();
      onSelect(items[next].value);
      refs.current[next]?.focus();
    } else if ((event.key === "Enter" || event.key === " ") && onActivate) {
      event.preventDefault();
      onSelect(items[selectedIndex].value);
      onActivate();
    }
  };
  return (
    <div role="radiogroup" aria-label={label} className={className} onKeyDown={onKeyDown}>
      {items.map((item, index) => (
        <button
          type="button"
          role="radio"
          key={item.value}
          ref={(node) => {
            refs.current[index] = node;
          }}
          aria-checked={item.value === selected}
          tabIndex={index === selectedIndex ? 0 : -1}
          className={itemClass}
          onClick={() => onSelect(item.value)}
          data-value={item.value}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}

export function BookingScheduler({
  lang,
  locale,
  words,
  fields,
  requiredNote,
  honeypotLabel,
  privacyText,
  privacyHref,
  privacyLinkLabel,
  fallbackHref,
  sendRetry,
}) {
  const [phase, setPhase] = useState("loading"); // loading | unavailable | choose | form | booked
  const [ids, setIds] = useState([]);
  const [zone, setZone] = useState("");
  const [day, setDay] = useState("");
  const [slot, setSlot] = useState("");
  const [announce, setAnnounce] = useState("");
  const [slotError, setSlotError] = useState("");
  const [fieldErrors, setFieldErrors] = useState({});
  const [formError, setFormError] = useState("");
  const [submitting, setSubmitting] = useState(false);
  // True while a booking that met a network error or a 502-504 is being sent again.
  const [retrying, setRetrying] = useState(false);
  const [bookedEmail, setBookedEmail] = useState("");
  const dayRefs = useRef([]);
  const slotRefs = useRef([]);
  const firstField = useRef(null);
  const bookedHeading = useRef(null);
  const idempotencyKey = useRef("");

  const load = async (keepError) => {
    try {
      const response = await fetch(SLOTS_URL, { headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const data = await response.json();
      const visitor = visitorZone(data.timezone);
      setZone(visitor);
      setIds(data.slots);
      const days = groupByDay(data.slots, visitor, locale);
      setDay(days.length ? days[0].key : "");
      setSlot("");
      if (!keepError) setSlotError("");
      setPhase("choose");
    } catch (error) {
      setPhase("unavailable");
    }
  };

  useEffect(() => {
    load(false);
  }, []);

  const days = useMemo(() => (zone ? groupByDay(ids, zone, locale) : []), [ids, zone, locale]);
  const currentDay = days.find((d) => d.key === day) || days[0];
  const slotLabel = (id) => {
    for (const d of days) {
      const found = d.slots.find((s) => s.id === id);
      if (found) return `${d.long}, ${found.time}`;
    }
    return "";
  };

  useEffect(() => {
    if (phase === "form") firstField.current?.focus();
    if (phase === "booked") bookedHeading.current?.focus();
  }, [phase]);

  const selectDay = (key) => {
    setDay(key);
    setSlot("");
    const d = days.find((item) => item.key === key);
    if (d) setAnnounce(d.long);
  };
  const selectSlot = (id) => {
    setSlot(id);
    setAnnounce(fill(words.selected, { slot: slotLabel(id) }));
  };
  const toForm = () => {
    if (!slot) return;
    idempotencyKey.current = newKey();
    setFieldErrors({});
    setFormError("");
    setPhase("form");
  };

  const onSubmit = async (event) => {
    event.preventDefault();
    if (submitting) return;
    const refused = checkFields(event.currentTarget, fields);
    setFieldErrors(refused);
    if (Object.keys(refused).length) return;
    const values = Object.fromEntries(new FormData(event.currentTarget).entries());
    setSubmitting(true);
    setFormError("");
    let response;
    let body = {};
    try {
      // Sent again with the same Idempotency-Key on a network error or a 502-504 (one booking).
      response = await postWithRetries(
        BOOK_URL,
        { "Content-Type": "application/json", "Idempotency-Key": idempotencyKey.current },
        JSON.stringify({ ...values, slot, lang, timezone: zone, attribution: visitAttribution() }),
        sendRetry,
        () => setRetrying(true),
      );
      body = await response.json().catch(() => ({}));
    } catch (networkError) {
      setRetrying(false);
      setSubmitting(false);
      setFormError(words.error);
      return;
    }
    setRetrying(false);
    setSubmitting(false);
    const errors = body.errors || {};
    if (response.status === 201) {
      setBookedEmail(values.email);
      setPhase("booked");
      return;
    }
    if (errors.slot) {
      // The slot went (or never was): back to the calendar, refreshed, with the reason.
      setSlotError(errors.slot);
      setPhase("loading");
      await load(true);
      return;
    }
    if (response.status === 422) {
      setFieldErrors(errors);
      setFormError(Object.values(errors)[0] || words.error);
      return;
    }
    setFormError(errors.form || words.error);
  };

  const zoneLine = zone ? fill(words.timezone, { zone }) : "";

  return (
    <section className="booking-scheduler" aria-label={words.label} data-phase={phase}>
      <p className="booking-scheduler__live" aria-live="polite" role="status">
        {announce}
      </p>
      {phase === "loading" ? (
        <p className="booking-scheduler__loading" aria-busy="true">
          {words.loading}
        </p>
      ) : null}
      {phase === "unavailable" ? (
        <div className="booking-scheduler__unavailable">
          <p role="alert">{words.unavailable}</p>
          <a className="btn btn--primary" href={fallbackHref}>
            {words.unavailable_cta}
          </a>
        </div>
      ) : null}
      {phase === "choose" ? (
        <>
          <p className="booking-scheduler__zone">{zoneLine}</p>
          <Announced role="alert">
            {slotError ? <p className="booking-scheduler__error">{slotError}</p> : null}
          </Announced>
          {days.length === 0 ? (
            <p>{words.no_slots}</p>
          ) : (
            <>
              <p className="booking-scheduler__hint" id="booking-keyboard-hint">
                {words.keyboard_hint}
              </p>
              <RadioGroup
                label={words.days_label}
                items={days.map((d) => ({ value: d.key, label: d.label }))}
                selected={currentDay.key}
                onSelect={selectDay}
                className="booking-scheduler__days"
                itemClass="booking-scheduler__day"
                refs={dayRefs}
              />
              <RadioGroup
                label={fill(words.slots_label, { day: currentDay.long })}
                items={currentDay.slots.map((s) => ({ value: s.id, label: s.time }))}
                selected={slot}
                onSelect={selectSlot}
                onActivate={toForm}
                className="booking-scheduler__slots"
                itemClass="booking-scheduler__slot"
                refs={slotRefs}
              />
              <div className="booking-scheduler__actions">
                <button type="button" className="btn btn--primary" disabled={!slot} onClick={toForm}>
                  {words.continue}
                </button>
              </div>
            </>
          )}
        </>
      ) : null}
      {phase === "form" ? (
        <form className="booking-scheduler__form" onSubmit={onSubmit} noValidate aria-describedby="booking-privacy">
          <h3 className="booking-scheduler__title">{words.form_title}</h3>
          <p className="booking-scheduler__chosen">
            {fill(words.chosen, { slot: slotLabel(slot), zone })}{" "}
            <button type="button" className="booking-scheduler__change" onClick={() => setPhase("choose")}>
              {words.change}
            </button>
          </p>
          <p className="lead-form__note">{requiredNote}</p>
          <div className="booking-scheduler__fields">
            <FormFields
              fields={fields}
              idPrefix="booking"
              errors={fieldErrors}
              onEdit={(name) => setFieldErrors((current) => ({ ...current, [name]: undefined }))}
              firstRef={firstField}
            />
          </div>
          <div className="lead-form__trap" aria-hidden="true">
            <label htmlFor="booking-website">{honeypotLabel}</label>
            <input id="booking-website" name="website" type="text" tabIndex={-1} autoComplete="off" />
          </div>
          <div className="lead-form__outcome">
            <Announced role="status">
              {retrying ? <p className="lead-form__retrying">{words.retrying}</p> : null}
            </Announced>
            <Announced role="alert">{formError ? <p className="lead-form__error">{formError}</p> : null}</Announced>
            <button type="submit" className="btn btn--primary" disabled={submitting} aria-busy={submitting}>
              {submitting ? words.confirming : words.confirm}
            </button>
          </div>
          <p className="lead-form__privacy" id="booking-privacy">
            {privacyText} <Link to={privacyHref}>{privacyLinkLabel}</Link>
          </p>
        </form>
      ) : null}
      {phase === "booked" ? (
        <div className="booking-scheduler__booked">
          <h3 tabIndex={-1} ref={bookedHeading}>
            {words.booked_title}
          </h3>
          <p role="status">{fill(words.booked_text, { slot: slotLabel(slot), zone, email: bookedEmail })}</p>
        </div>
      ) : null}
    </section>
  );
}
