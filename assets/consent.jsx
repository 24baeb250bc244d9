// Consent and analytics, entirely in the browser (no server round trip).
//
// Two modes, chosen when the site is built (settings CONSENT_SCRIPT_URL):
// - our own banner (no consent service configured): the visitor's choice is kept six months
//   in the first-party cookie `nereo_consent` ("v=1&analytics=0|1&ts=<unix seconds>");
// - a third-party consent service: its script is loaded (async) and owns consent; our banner
//   is not rendered, and analytics waits for the service to call
//   `window.nereoConsent.grant("analytics")` (and `revoke("analytics")` on withdrawal) on
//   every page load. Our cookie is ignored in that mode.
//
// Nothing is tracked before a choice: the analytics script (ANALYTICS_SCRIPT_URL) is
// injected only once the "analytics" category is granted, and never when it is refused.
//
// The JS API, for the lead forms and the consent service (window.nereoConsent):
//   track(name, data)  sends {event: name, ...data} through window.dataLayer.push once the
//                      analytics script has loaded; without analytics consent it sends and
//                      queues nothing and returns false. Returns true when the event is sent
//                      or waits for the script being loaded.
//   has(category)      true when the category ("analytics") is granted.
//   grant(category), revoke(category)   record a choice (persisted in our cookie in banner mode).
//   open()             reopens our banner (the "cookie settings" buttons call it).
import { useEffect, useId, useRef, useState } from "react";

export const CONSENT_VERSION = 1;
// The cookie's name and lifetime (seconds) are props, from marketing_site/services/site_storage.py:
// the list the privacy policy's cookie table is rendered from.
const consentCookie = { name: "", maxAge: 0 };
const CATEGORIES = ["analytics"];
const SERVICE_SCRIPT_ID = "nereo-consent-service";
const ANALYTICS_SCRIPT_ID = "nereo-analytics";

// One store per document: the layout (and so this component) remounts on every client-side
// page change, the visitor's choice and the analytics script do not.
const store = {
  configured: false,
  thirdParty: false,
  analyticsUrl: "",
  choice: null, // {analytics: bool} once the visitor (or the service) has chosen
  script: "none", // none | loading | loaded | failed
  pending: [], // events tracked with consent while the script loads
  openers: new Set(),
  listeners: new Set(), // told of every choice (the banner hides)
};

function readCookie() {
  const entry = document.cookie.split("; ").find((c) => c.startsWith(consentCookie.name + "="));
  if (!entry) return null;
  const params = new URLSearchParams(entry.slice(consentCookie.name.length + 1));
  if (params.get("v") !== String(CONSENT_VERSION)) return null; // an older choice: ask again
  const choice = {};
  for (const category of CATEGORIES) {
    const value = params.get(category);
    if (value !== "0" && value !== "1") return null;
    choice[category] = value === "1";
  }
  return choice;
}

function writeCookie(choice) {
  const params = new URLSearchParams({ v: String(CONSENT_VERSION) });
  for (const category of CATEGORIES) params.set(category, choice[category] ? "1" : "0");
  params.set("ts", String(Math.floor(Date.now() / 1000)));
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${consentCookie.name}=${params.toString()}; Max-Age=${consentCookie.maxAge}; Path=/; SameSite=Lax${secure}`;
}

function has(category) {
  return Boolean(store.choice && store.choice[category]);
}

function sendNow(event) {
  window.dataLayer = window.dataLayer || [];
  window.dataLayer.push(event);
}

function loadAnalytics() {
  if (!has("analytics") || !store.analyticsUrl || store.script !== "none") return;
  store.script = "loading";
  const script = document.createElement("script");
  script.id = ANALYTICS_SCRIPT_ID;
  script.async = true;
  script.src = store.analyticsUrl;
  script.onload = () => {
    store.script = "loaded";
    const pending = store.pending;
    store.pending = [];
    if (has("analytics")) pending.forEach(sendNow);
  };
  script.onerror = () => {
    store.script = "failed";
    store.pending = [];
  };
  document.head.appendChild(script);
}

function setChoice(choice) {
  store.choice = choice;
  if (!store.thirdParty) writeCookie(choice);
  if (!has("analytics")) store.pending = [];
  loadAnalytics();
  store.listeners.forEach((listener) => listener());
}

function track(name, data) {
  if (!has("analytics") || !store.analyticsUrl || typeof name !== "string" || !name) return false;
  const event = { ...(data || {}), event: name };
  if (store.script === "loaded") {
    sendNow(event);
    return true;
  }
  if (store.script === "loading") {
    store.pending.push(event);
    return true;
  }
  return false;
}

function change(category, value) {
  if (!CATEGORIES.includes(category)) return;
  const base = store.choice || Object.fromEntries(CATEGORIES.map((c) => [c, false]));
  setChoice({ ...base, [category]: value });
}

const api = {
  version: CONSENT_VERSION,
  track,
  has,
  grant: (category) => change(category, true),
  revoke: (category) => change(category, false),
  open: () => store.openers.forEach((open) => open()),
};

// Called by the component on mount with its build-time settings; the first call wins.
function configure({ analyticsUrl, consentScriptUrl }) {
  if (store.configured) return;
  store.configured = true;
  store.thirdParty = Boolean(consentScriptUrl);
  store.analyticsUrl = analyticsUrl || "";
  window.nereoConsent = api;
  if (store.thirdParty) {
    if (!document.getElementById(SERVICE_SCRIPT_ID)) {
      const script = document.createElement("script");
      script.id = SERVICE_SCRIPT_ID;
      script.async = true;
      script.src = consentScriptUrl;
      document.head.appendChild(script);
    }
  } else {
    store.choice = readCookie();
    loadAnalytics();
  }
}

// While the banner shows, the page keeps room below its content for it (padding that only
// extends the end of the page, so nothing moves) and focused elements scroll clear of it.
function useReservedSpace(ref, visible) {
  useEffect(() => {
    if (!visible || !ref.current) return undefined;
    const root = document.documentElement;
    // The observer reports the banner's height after each layout (its first report comes
    // with the next frame): reading offsetHeight here instead would force a layout of the
    // whole page in the middle of hydration.
    const observer = new ResizeObserver(([entry]) => {
      const height = `${entry.borderBoxSize[0].blockSize}px`;
      document.body.style.paddingBottom = height;
      root.style.scrollPaddingBottom = height;
      // For what sticks to the window and scrolls on its own (the legal pages' contents).
      root.style.setProperty("--consent-space", height);
    });
    observer.observe(ref.current);
    return () => {
      observer.disconnect();
      document.body.style.paddingBottom = "";
      root.style.scrollPaddingBottom = "";
      root.style.removeProperty("--consent-space");
    };
  }, [ref, visible]);
}

// Runs in <head> before the first paint: marks the page when no valid choice is stored, so
// the prerendered banner paints with the page instead of popping up after hydration.
export function ConsentGate({ cookieName }) {
  const code =
    `if(!/(^|; )${cookieName.replace(/\./g, "\\.")}=v=${CONSENT_VERSION}(;|&|$)/.test(document.cookie))` +
    `document.documentElement.setAttribute("data-consent","pending");`;
  return <script dangerouslySetInnerHTML={{ __html: code }} />;
}

// The banner (own mode only). `texts` come from marketing_site/content/consent.py.
// It is prerendered and, until hydrated, shown only on pages marked by ConsentGate.
export function ConsentManager({ texts, privacyHref, analyticsUrl, consentScriptUrl, cookieName, cookieMaxAge }) {
  consentCookie.name = cookieName;
  consentCookie.maxAge = cookieMaxAge;
  const [visible, setVisible] = useState(true);
  const [gated, setGated] = useState(true);
  const [customising, setCustomising] = useState(false);
  const [analytics, setAnalytics] = useState(false);
  // Said by screen readers once a choice is made (the banner, and its buttons, are gone).
  const [confirmation, setConfirmation] = useState("");
  const root = useRef(null);
  const title = useRef(null);
  const returnFocus = useRef(null);
  const ids = useId();
  const thirdParty = Boolean(consentScriptUrl);

  useEffect(() => {
    configure({ analyticsUrl, consentScriptUrl });
    if (thirdParty) return undefined;
    setGated(false);
    setVisible(store.choice === null);
    const open = () => {
      returnFocus.current = document.activeElement;
      setAnalytics(has("analytics"));
      setCustomising(true);
      setVisible(true);
      window.requestAnimationFrame(() => title.current && title.current.focus());
    };
    const chosen = () => {
      setVisible(false);
      setCustomising(false);
    };
    store.openers.add(open);
    store.listeners.add(chosen);
    return () => {
      store.openers.delete(open);
      store.listeners.delete(chosen);
    };
  }, [analyticsUrl, consentScriptUrl, thirdParty]);

  useReservedSpace(root, visible && !gated);

  if (thirdParty) return null;
  const status = (
    <p className="sr-only" role="status">
      {confirmation}
    </p>
  );
  if (!visible) return status;

  const choose = (choice) => {
    setChoice(choice); // hides the banner (listener above)
    setConfirmation(texts.saved);
    const back = returnFocus.current;
    returnFocus.current = null;
    if (back && back.isConnected) {
      back.focus();
    } else {
      // The banner answered on arrival: focus goes to the page's content, not the body.
      const main = document.getElementById("contenu");
      main && main.focus({ preventScroll: true });
    }
  };
  const panelId = `${ids}-panel`;
  const t = texts;
  return (
    <>
    <div
      ref={root}
      className="consent-banner"
      role="dialog"
      aria-modal="false"
      aria-label={t.label}
      aria-describedby={`${ids}-text`}
      data-customising={customising ? "true" : "false"}
      data-gate={gated ? "cookie" : undefined}
    >
      <div className="consent-banner__inner">
        <h2 ref={title} className="consent-banner__title" tabIndex={-1}>
          {t.title}
        </h2>
        <p id={`${ids}-text`} className="consent-banner__text">
          {t.text} {t.privacy_before}
          <a href={privacyHref}>{t.privacy_link}</a>
          {t.privacy_after}
        </p>
        <div className="consent-banner__actions">
          <button type="button" className="consent-button" onClick={() => choose({ analytics: true })}>
            {t.accept_all}
          </button>
          <button type="button" className="consent-button" onClick={() => choose({ analytics: false })}>
            {t.refuse_all}
          </button>
          <button
            type="button"
            className="consent-banner__customise"
            aria-expanded={customising}
            aria-controls={customising ? panelId : undefined}
            onClick={() => {
              if (!customising) setAnalytics(has("analytics"));
              setCustomising(!customising);
            }}
          >
            {t.customise}
          </button>
        </div>
        {customising && (
          <fieldset id={panelId} className="consent-panel">
            <legend className="consent-panel__title">{t.panel_title}</legend>
            <div className="consent-option">
              <input id={`${ids}-necessary`} type="checkbox" checked disabled readOnly />
              <label htmlFor={`${ids}-necessary`}>
                <span className="consent-option__label">
                  {t.necessary_label} <span className="consent-option__badge">{t.always_on}</span>
                </span>
                <span className="consent-option__text">{t.necessary_text}</span>
              </label>
            </div>
            <div className="consent-option">
              <input
                id={`${ids}-analytics`}
                type="checkbox"
                name="analytics"
                checked={analytics}
                onChange={(e) => setAnalytics(e.target.checked)}
              />
              <label htmlFor={`${ids}-analytics`}>
                <span className="consent-option__label">{t.analytics_label}</span>
                <span className="consent-option__text">{t.analytics_text}</span>
              </label>
            </div>
            <button type="button" className="consent-button" onClick={() => choose({ analytics })}>
              {t.save}
            </button>
          </fieldset>
        )}
      </div>
    </div>
    {status}
    </>
  );
}

// "Cookie settings": reopens the banner on the customise panel.
export function ConsentSettingsButton({ label, className }) {
  return (
    <button type="button" className={className} onClick={() => window.nereoConsent && window.nereoConsent.open()}>
      {label}
    </button>
  );
}
