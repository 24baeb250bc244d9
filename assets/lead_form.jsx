// The lead form of SPEC §4: posts to /api/v1/mail/send and reads only the status.
//   200            -> mailSent true, error false; download the file, conversion event
//                     (English pages, after consent), then the thank-you route.
//   other status   -> error true; mailSent takes the form's own failure value
//                     (white paper: true, e-book: unset, documentation: false).
//   network error  -> error true, mailSent false (the button stays).
// While mailSent is true the button is replaced by the thank-you message.
import { useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";

const THANKS_DELAY_MS = 1200;

export const FIELDS = [
  { name: "name", type: "text", autoComplete: "family-name" },
  { name: "firstname", type: "text", autoComplete: "given-name" },
  { name: "phone", type: "tel", autoComplete: "tel" },
  { name: "company", type: "text", autoComplete: "organization" },
  { name: "email", type: "email", autoComplete: "email" },
];

function newKey() {
  if (typeof crypto !== "undefined" && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

function summary(v) {
  return `Prénom : ${v.firstname}\nNom : ${v.name}\nTéléphone : ${v.phone}\nEmail : ${v.email}\nSociété : ${v.company}\n`;
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
  labels,
  submitLabel,
  submittingLabel,
  successText,
  errorText,
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
    const values = Object.fromEntries(new FormData(event.currentTarget).entries());
    setSubmitting(true);
    let status = 0;
    try {
      const response = await fetch("/api/v1/mail/send", {
        method: "POST",
        headers: { "Content-Type": "application/json", "Idempotency-Key": idempotencyKey.current },
        body: JSON.stringify({
          ...values,
          subject,
          lang,
          text: summary(values),
          mailSent: mailSent === true,
          error,
          elapsedMs: Date.now() - startedAt.current,
        }),
      });
      status = response.status;
    } catch (networkError) {
      setError(true);
      setMailSent(false);
      setSubmitting(false);
      return;
    }
    setSubmitting(false);
    if (status !== 200) {
      setError(true);
      setMailSent(failureMailSent === null ? undefined : failureMailSent);
      return;
    }
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
      noValidate={false}
      aria-describedby={`${id}-privacy`}
      data-mail-sent={mailSent === undefined ? "unset" : String(mailSent)}
      data-error={String(error)}
    >
      <p className="lead-form__note">{requiredNote}</p>
      {FIELDS.map((field) => (
        <div className="field" key={field.name}>
          <label className="field__label" htmlFor={`${id}-${field.name}`}>
            {labels[field.name]}
          </label>
          <input
            className="field__input"
            id={`${id}-${field.name}`}
            name={field.name}
            type={field.type}
            autoComplete={field.autoComplete}
            required
            maxLength={200}
          />
        </div>
      ))}
      <div className="lead-form__trap" aria-hidden="true">
        <label htmlFor={`${id}-website`}>{honeypotLabel}</label>
        <input id={`${id}-website`} name="website" type="text" tabIndex={-1} autoComplete="off" />
      </div>
      {error ? (
        <p className="lead-form__error" role="alert">
          {errorText}
        </p>
      ) : null}
      {mailSent === true ? (
        <p className="lead-form__success" role="status">
          {successText}
        </p>
      ) : (
        <button
          type="submit"
          className="btn btn--primary lead-form__submit"
          disabled={submitting}
          aria-busy={submitting}
        >
          {submitting ? submittingLabel : submitLabel}
        </button>
      )}
      <p className="lead-form__privacy" id={`${id}-privacy`}>
        {privacyText} <Link to={privacyHref}>{privacyLinkLabel}</Link>
      </p>
    </form>
  );
}
