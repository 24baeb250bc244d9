// The lead form of SPEC §4: posts to /api/v1/mail/send and reads only the status.
//   200            -> mailSent true, error false; download the file, conversion event
//                     (English pages, after consent), then the thank-you route.
//   other status   -> error true; mailSent takes the form's own failure value
//                     (white paper: true, e-book: unset, documentation: false).
//                     422: the server's per-field messages next to the fields;
//                     429: when to try again (Retry-After); else the generic message.
//   network error  -> error true, mailSent false (the button stays).
// A network error, 502, 503 or 504 is first sent again with the same Idempotency-Key (the server
// stores the lead once), as the `sendRetry` prop says (pauses and total time, from
// components/lead_form.py), the visitor told it is retrying; only then is it a failure. No
// failure shows the thank-you message or hides the button (issue 33: on the white paper it did,
// and the lead was lost without the visitor knowing).
// While mailSent is true the button is replaced by the thank-you message.
// Before sending, each field is checked with the server's own rules (the `fields` prop carries
// its pattern, maximum length and messages): what the server would refuse is explained next to
// the field, in the page's language, and nothing is sent.
import { useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { visitAttribution } from "./site_ui.jsx";

const THANKS_DELAY_MS = 1200;

// The message for a field the browser's constraint checks refuse (required, pattern, type, length).
export function fieldMessage(input, field) {
  const v = input.validity;
  if (v.valid) return null;
  if (v.valueMissing) return field.messages.required;
  if (v.tooLong) return field.messages.tooLong;
  return field.messages.mismatch;
}

// Check every contact field of a form element with the server's rules: the messages by field
// name, and the first refused field focused (nothing is sent while any is refused).
export function checkFields(formElement, fields) {
  const refused = {};
  for (const field of fields) {
    const message = fieldMessage(formElement.elements.namedItem(field.name), field);
    if (message) refused[field.name] = message;
  }
  const first = fields.find((field) => refused[field.name]);
  if (first) formElement.elements.namedItem(first.name).focus();
  return refused;
}

// The fields a form asks (services.leads.field_specs, typed there as FieldSpec): each
// one's kind (text, email, tel: an <input>; textarea; select with its options), whether it is
// required, the server's pattern and length, its label and the message next to it. Rendered as
// given, in the given order. Shared by the lead form and the scheduler.
export function FormFields({ fields, idPrefix, errors, onEdit, firstRef }) {
  return fields.map((field, index) => {
    const inputId = `${idPrefix}-${field.name}`;
    const message = errors[field.name];
    const common = {
      className: "field__input",
      id: inputId,
      name: field.name,
      autoComplete: field.autoComplete,
      required: field.required,
      ref: index === 0 ? firstRef : undefined,
      "aria-invalid": message ? "true" : undefined,
      "aria-describedby": message ? `${inputId}-error` : undefined,
    };
    const onEdited = () => message && onEdit(field.name);
    let control;
    if (field.kind === "select") {
      control = (
        <select {...common} defaultValue="" onChange={onEdited}>
          {field.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      );
    } else if (field.kind === "textarea") {
      control = <textarea {...common} maxLength={field.maxLength} rows={4} onInput={onEdited} />;
    } else {
      control = (
        <input
          {...common}
          type={field.kind}
          maxLength={field.maxLength}
          pattern={field.pattern || undefined}
          onInput={onEdited}
        />
      );
    }
    return (
      <div className="field" key={field.name}>
        <label className="field__label" htmlFor={inputId}>
          {field.label}
        </label>
        {control}
        {message ? (
          <p className="field__error" id={`${inputId}-error`}>
            {message}
          </p>
        ) : null}
      </div>
    );
  });
}

// A live region that is in the page before its message: screen readers say what appears in a
// region they already know, and may say nothing of a region that appears with its message
// already in it (the lead form's thank-you and errors were not said: issue 41). Empty, it takes
// no room. Shared with the scheduler.
export function Announced({ role, children }) {
  return (
    <div className="announced" role={role}>
      {children}
    </div>
  );
}

// POST `body` to `url`; a network error or one of `retry.statuses` is sent again, with the same
// headers (the Idempotency-Key among them), after each pause of `retry.pausesMs` in turn while
// the whole stays within `retry.totalMs`; `onRetry(n)` is called before the n-th resend. Returns
// the last response, or throws the last network error. Shared with the scheduler (booking.jsx).
export async function postWithRetries(url, headers, body, retry, onRetry) {
  const started = Date.now();
  for (let attempt = 0; ; attempt += 1) {
    let response = null;
    let networkError = null;
    try {
      response = await fetch(url, { method: "POST", headers, body });
    } catch (error) {
      networkError = error;
    }
    const pause = retry.pausesMs[attempt];
    const again = networkError !== null || retry.statuses.includes(response.status);
    if (!again || pause === undefined || Date.now() - started + pause > retry.totalMs) {
      if (networkError !== null) throw networkError;
      return response;
    }
    onRetry(attempt + 1);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

function throttledMessage(retryAfter, secondsText, minutesText) {
  const seconds = Math.max(1, parseInt(retryAfter, 10) || 60);
  if (seconds < 90) return secondsText.replace("{n}", String(seconds));
  return minutesText.replace("{n}", String(Math.ceil(seconds / 60)));
}

function newKey() {
  if (typeof crypto !== "undefined" && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

// The summary template (fr/lead_sales.yaml) with each `{field}` slot filled from the form.
function summary(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, name) => values[name] ?? "");
}

function download(url, fileName) {
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.rel = "noopener";
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export function LeadForm({
  formKey,
  subject,
  lang,
  fields,
  summaryTemplate,
  submitLabel,
  submittingLabel,
  successText,
  errorText,
  retryingText,
  sendRetry,
  invalidText,
  throttledSecondsText,
  throttledMinutesText,
  requiredNote,
  honeypotLabel,
  privacyText,
  privacyHref,
  privacyLinkLabel,
  fileUrl,
  fileName,
  thanksPath,
  failureMailSent,
  trackConversion,
}) {
  const [mailSent, setMailSent] = useState(undefined);
  const [error, setError] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  // The message above the button when error is true (generic, 422 summary or 429 wait).
  const [errorMessage, setErrorMessage] = useState(errorText);
  // True while a send that met a network error or a 502-504 is being sent again.
  const [retrying, setRetrying] = useState(false);
  const [fieldErrors, setFieldErrors] = useState({});
  const startedAt = useRef(0);
  const idempotencyKey = useRef("");
  const navigate = useNavigate();
  const id = `lead-${formKey}`;

  useEffect(() => {
    startedAt.current = Date.now();
    idempotencyKey.current = newKey();
  }, []);

  const onSubmit = async (event) => {
    event.preventDefault();
    if (submitting) return;
    const formElement = event.currentTarget;
    const refused = checkFields(formElement, fields);
    setFieldErrors(refused);
    if (Object.keys(refused).length) return;
    const values = Object.fromEntries(new FormData(formElement).entries());
    setSubmitting(true);
    let status = 0;
    let response = null;
    try {
      response = await postWithRetries(
        "/api/v1/mail/send",
        { "Content-Type": "application/json", "Idempotency-Key": idempotencyKey.current },
        JSON.stringify({
          ...values,
          subject,
          lang,
          text: summary(summaryTemplate, values),
          mailSent: mailSent === true,
          error,
          elapsedMs: Date.now() - startedAt.current,
          attribution: visitAttribution(),
        }),
        sendRetry,
        () => setRetrying(true),
      );
      status = response.status;
    } catch (networkError) {
      setRetrying(false);
      setErrorMessage(errorText);
      setError(true);
      setMailSent(false);
      setSubmitting(false);
      return;
    }
    setRetrying(false);
    if (status !== 200) {
      let message = errorText;
      if (status === 429) {
        message = throttledMessage(response.headers.get("Retry-After"), throttledSecondsText, throttledMinutesText);
      } else if (status === 422) {
        const errors = await response.json().then((body) => (body && body.errors) || {}, () => ({}));
        const onFields = Object.fromEntries(fields.filter((f) => errors[f.name]).map((f) => [f.name, errors[f.name]]));
        if (Object.keys(onFields).length > 0) {
          setFieldErrors(onFields);
          message = invalidText;
        }
      }
      setSubmitting(false);
      setErrorMessage(message);
      setError(true);
      // Never true on a failure (components/lead_form.py refuses such a value): the button stays.
      setMailSent(failureMailSent === null ? undefined : failureMailSent);
      return;
    }
    setSubmitting(false);
    setMailSent(true);
    setError(false);
    download(fileUrl, fileName);
    if (trackConversion && window.nereoConsent) {
      window.nereoConsent.track("conversion", { form: formKey, lang });
    }
    // A short pause: the visitor sees the thank-you message while the download starts.
    setTimeout(() => navigate(thanksPath), THANKS_DELAY_MS);
  };

  return (
    <form
      className="lead-form"
      id={id}
      onSubmit={onSubmit}
      noValidate
      aria-describedby={`${id}-privacy`}
      data-mail-sent={mailSent === undefined ? "unset" : String(mailSent)}
      data-error={String(error)}
    >
      <p className="lead-form__note">{requiredNote}</p>
      <FormFields
        fields={fields}
        idPrefix={id}
        errors={fieldErrors}
        onEdit={(name) => setFieldErrors((current) => ({ ...current, [name]: undefined }))}
      />
      <div className="lead-form__trap" aria-hidden="true">
        <label htmlFor={`${id}-website`}>{honeypotLabel}</label>
        <input id={`${id}-website`} name="website" type="text" tabIndex={-1} autoComplete="off" />
      </div>
      <div className="lead-form__outcome">
        <Announced role="status">
          {retrying ? <p className="lead-form__retrying">{retryingText}</p> : null}
        </Announced>
        <Announced role="alert">
          {error && !retrying ? <p className="lead-form__error">{errorMessage}</p> : null}
        </Announced>
        <Announced role="status">
          {mailSent === true ? <p className="lead-form__success">{successText}</p> : null}
        </Announced>
        {mailSent === true ? null : (
          <button
            type="submit"
            className="btn btn--primary lead-form__submit"
            disabled={submitting}
            aria-busy={submitting}
          >
            {submitting ? submittingLabel : submitLabel}
          </button>
        )}
      </div>
      <p className="lead-form__privacy" id={`${id}-privacy`}>
        {privacyText} <Link to={privacyHref}>{privacyLinkLabel}</Link>
      </p>
    </form>
  );
}
