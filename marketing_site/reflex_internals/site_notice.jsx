// Tells the person when something failed on the server side, in the page's language, without
// running server-sent code (the site's CSP has no 'unsafe-eval', which blocks Reflex's toast):
//   - an event handler raised: the server's exception handler (marketing_site/failures.py)
//     sends Reflex's `_set_value` event for the ref `ref_site_error` with a short reference it
//     also logged; this component registers that ref, so the value lands in its state.
//   - the connection to the server is lost (network, server restart): Reflex's event loop
//     reports failed attempts in `connectErrors`; the message shows a reference made here,
//     and once the connection is back the reference goes to /api/v1/client-report, which
//     logs it, so the person and the server log quote the same reference.
import { useContext, useEffect, useRef, useState } from "react";
import { EventLoopContext } from "$/utils/context";
import { refs } from "$/utils/state";

const REPORT_URL = "/api/v1/client-report";

// Eight hexadecimal characters, the first a letter, as the server makes them (logs.new_reference):
// the log's phone-number mask would hide an all-digit one.
function newReference() {
  const bytes = new Uint8Array(4);
  crypto.getRandomValues(bytes);
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0"))
    .join("")
    .toUpperCase();
  return "ABCDEF"[bytes[0] % 6] + hex.slice(1);
}

export function SiteNotice({ messages, refName }) {
  const loop = useContext(EventLoopContext);
  const connectErrors = (loop && loop[1]) || [];
  const [notice, setNotice] = useState(null); // {kind: handler | connection | reconnected, ref}
  const lost = useRef(null);

  useEffect(() => {
    refs[refName] = {
      current: {
        set value(reference) {
          setNotice({ kind: "handler", ref: String(reference).slice(0, 16) });
        },
      },
    };
    return () => {
      delete refs[refName];
    };
  }, [refName]);

  const down = connectErrors.length > 0;
  useEffect(() => {
    if (down && lost.current === null) {
      lost.current = { ref: newReference(), since: Date.now() };
      setNotice({ kind: "connection", ref: lost.current.ref });
    } else if (!down && lost.current !== null) {
      const { ref, since } = lost.current;
      lost.current = null;
      setNotice({ kind: "reconnected", ref });
      fetch(REPORT_URL, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          ref,
          kind: "connection",
          seconds: Math.round((Date.now() - since) / 1000),
          path: window.location.pathname,
        }),
        keepalive: true,
      }).catch(() => {});
    }
  }, [down]);

  if (notice === null) return null;
  const busy = notice.kind === "connection";
  return (
    <div
      className={`site-notice site-notice--${notice.kind}`}
      role={busy || notice.kind === "handler" ? "alert" : "status"}
      data-testid="site-notice"
      data-kind={notice.kind}
    >
      <p className="site-notice__text">
        {messages[notice.kind]}{" "}
        <span className="site-notice__ref">
          {messages.reference} <code data-testid="site-notice-ref">{notice.ref}</code>
        </span>
      </p>
      <div className="site-notice__actions">
        {notice.kind !== "connection" && (
          <a className="site-notice__reload" href={window.location.pathname + window.location.search}>
            {messages.reload}
          </a>
        )}
        {!busy && (
          <button type="button" className="site-notice__close" onClick={() => setNotice(null)}>
            {messages.close}
          </button>
        )}
      </div>
    </div>
  );
}
