// Consent and the scripts it allows, entirely in the browser (no server round trip).
//
// The purposes asked about are data, not code: the `purposes` prop, built in Python from
// marketing_site/content/consent.py (key, what it loads, which events it carries) and the words
// of content/<lang>/consent.yaml. This file only renders that list and applies the choice.
//
// Two modes, chosen when the site is built (settings CONSENT_SCRIPT_URL):
// - our own banner (no consent service configured): the visitor's choice is kept six months
//   in the first-party cookie `nereo_consent` ("v=1&<purpose>=0|1&…&ts=<unix seconds>");
// - a third-party consent service: its script is loaded (async) and owns consent; our banner
//   is not rendered, and each purpose waits for the service to call
//   `window.nereoConsent.grant(<purpose>)` (and `revoke(<purpose>)` on withdrawal) on every
//   page load. Our cookie is ignored in that mode.
//
// Nothing a purpose loads runs before that purpose is chosen: its scripts are injected only
// once it is granted, never when it is refused. A cookie missing a purpose (added since, or
// the earlier banner's `analytics`-only cookie) keeps the choices it holds and asks again.
//
// The JS API, for the lead forms and the consent service (window.nereoConsent):
//   track(name, data)  sends {event: name, ...data} through window.dataLayer.push once the
//                      scripts of the purpose carrying that event have loaded; without that
//                      purpose's consent (or for an event no purpose carries) it sends and
//                      queues nothing and returns false. Returns true when the event is sent
//                      or waits for the scripts being loaded.
//   has(purpose)       true when the purpose is granted.
//   grant(purpose), revoke(purpose)   record a choice (persisted in our cookie in banner mode).
//   open()             reopens our banner (the "cookie settings" buttons call it).
import { useEffect, useId, useRef, useState } from "react";

export const CONSENT_VERSION = 1;
// The cookie's name and lifetime (seconds) are props, from marketing_site/services/site_storage.py:
// the list the privacy policy's cookie table is rendered from.
const consentCookie = { name: "", maxAge: 0 };
const SERVICE_SCRIPT_ID = "nereo-consent-service";

// One store per document: the layout (and so this component) remounts on every client-side
// page change, the visitor's choice and the loaded scripts do not.
const store = {
  configured: false,
  thirdParty: false,
  purposes: [], // [{key, scripts: [url], events: [name]}] from the props
  choice: null, // {<purpose>: bool} for every purpose once configured
  answered: new Set(), // the purposes the visitor (or the service) has answered
  scripts: {}, // per purpose: none | loading | loaded | failed
  pending: {}, // per purpose: events tracked with consent while its scripts load
  openers: new Set(),
  listeners: new Set(), // told of every choice (the banner hides)
};

const keys = () => store.purposes.map((purpose) => purpose.key);
const noChoice = () => Object.fromEntries(keys().map((key) => [key, false]));
const complete = () => keys().every((key) => store.answered.has(key));

// The stored choice into the store. A purpose the cookie does not name is not granted, and
// not answered: the banner asks for it.
function readCookie() {
  const entry = document.cookie.split("; ").find((c) => c.startsWith(consentCookie.name + "="));
  if (!entry) return;
  const params = new URLSearchParams(entry.slice(consentCookie.name.length + 1));
  if (params.get("v") !== String(CONSENT_VERSION)) return; // an older format: ask again
  for (const key of keys()) {
    const value = params.get(key);
    if (value !== "0" && value !== "1") continue;
    store.choice[key] = value === "1";
    store.answered.add(key);
  }
}

// Only the answered purposes: an unanswered one must be asked again on the next page.
function writeCookie(choice) {
  const params = new URLSearchParams({ v: String(CONSENT_VERSION) });
  for (const key of keys()) if (store.answered.has(key)) params.set(key, choice[key] ? "1" : "0");
  params.set("ts", String(Math.floor(Date.now() / 1000)));
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${consentCookie.name}=${params.toString()}; Max-Age=${consentCookie.maxAge}; Path=/; SameSite=Lax${secure}`;
}

function has(key) {
  return Boolean(store.choice && store.choice[key]);
}

function sendNow(event) {
  window.dataLayer = window.dataLayer || [];
  window.dataLayer.push(event);
}

// Inject a granted purpose's scripts (once per document); its queued events go once all loaded.
function loadPurpose(purpose) {
  const urls = purpose.scripts.filter(Boolean);
  if (!has(purpose.key) || urls.length === 0 || store.scripts[purpose.key] !== "none") return;
  store.scripts[purpose.key] = "loading";
  let waiting = urls.length;
  urls.forEach((url, index) => {
    const script = document.createElement("script");
    script.id = `nereo-consent-${purpose.key}-${index}`;
    script.async = true;
    script.src = url;
    script.onload = () => {
      waiting -= 1;
      if (waiting > 0 || store.scripts[purpose.key] !== "loading") return;
      store.scripts[purpose.key] = "loaded";
      const pending = store.pending[purpose.key];
      store.pending[purpose.key] = [];
      if (has(purpose.key)) pending.forEach(sendNow);
    };
    script.onerror = () => {
      store.scripts[purpose.key] = "failed";
      store.pending[purpose.key] = [];
    };
    document.head.appendChild(script);
  });
}

// `answered`: the purposes this choice answers (the banner answers them all).
function setChoice(choice, answered) {
  store.choice = { ...noChoice(), ...choice };
  answered.forEach((key) => store.answered.add(key));
  if (!store.thirdParty) writeCookie(store.choice);
  for (const purpose of store.purposes) {
    if (!has(purpose.key)) store.pending[purpose.key] = [];
    loadPurpose(purpose);
  }
  store.listeners.forEach((listener) => listener());
}

function track(name, data) {
  if (typeof name !== "string" || !name) return false;
  const purpose = store.purposes.find((candidate) => candidate.events.includes(name));
  if (!purpose || !has(purpose.key) || purpose.scripts.filter(Boolean).length === 0) return false;
  const event = { ...(data || {}), event: name };
  const state = store.scripts[purpose.key];
  if (state === "loaded") {
    sendNow(event);
    return true;
  }
  if (state === "loading") {
    store.pending[purpose.key].push(event);
    return true;
  }
  return false;
}

function change(key, value) {
  if (!keys().includes(key)) return;
  // A grant or revoke from the consent service answers that purpose only: the banner of our
  // own mode keeps asking for the others.
  setChoice({ ...(store.choice || noChoice()), [key]: value }, [key]);
}

const api = {
  version: CONSENT_VERSION,
  track,
  has,
  grant: (key) => change(key, true),
  revoke: (key) => change(key, false),
  open: () => store.openers.forEach((open) => open()),
};

// Called by the component on mount with its build-time settings; the first call wins.
function configure({ purposes, consentScriptUrl }) {
  if (store.configured) return;
  store.configured = true;
  store.thirdParty = Boolean(consentScriptUrl);
  store.purposes = (purposes || []).map(({ key, scripts, events }) => ({ key, scripts, events }));
  for (const key of keys()) {
    store.scripts[key] = "none";
    store.pending[key] = [];
  }
  store.choice = noChoice();
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
    readCookie();
    store.purposes.forEach(loadPurpose);
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

// Runs in <head> before the first paint: marks the page when the stored choice does not answer
// every purpose (`purposeKeys`, from content/consent.py), so the prerendered banner paints with
// the page instead of popping up after hydration. Its text is fixed at build time (the page's
// content security policy carries its hash): nothing is evaluated from a string.
export function ConsentGate({ cookieName, purposeKeys }) {
  const code =
    `(function(){var m=document.cookie.match(/(?:^|; )${cookieName.replace(/\./g, "\\.")}=([^;]*)/);` +
    `var p=m?new URLSearchParams(m[1]):null;` +
    `if(!p||p.get("v")!=="${CONSENT_VERSION}"||!${JSON.stringify(purposeKeys)}.every(function(k){var v=p.get(k);return v==="0"||v==="1";}))` +
    `document.documentElement.setAttribute("data-consent","pending");})();`;
  return <script dangerouslySetInnerHTML={{ __html: code }} />;
}

// The banner (own mode only). `texts` and `purposes` come from marketing_site/components/consent.py
// (words in content/<lang>/consent.yaml, purposes in content/consent.py).
// It is prerendered and, until hydrated, shown only on pages marked by ConsentGate.
export function ConsentManager({ texts, purposes, privacyHref, consentScriptUrl, cookieName, cookieMaxAge }) {
  consentCookie.name = cookieName;
  consentCookie.maxAge = cookieMaxAge;
  const [visible, setVisible] = useState(true);
  const [gated, setGated] = useState(true);
  const [customising, setCustomising] = useState(false);
  // The panel's boxes, by purpose key (the stored choice when it opens).
  const [selected, setSelected] = useState({});
  // Said by screen readers once a choice is made (the banner, and its buttons, are gone).
  const [confirmation, setConfirmation] = useState("");
  const root = useRef(null);
  const title = useRef(null);
  const returnFocus = useRef(null);
  const ids = useId();
  const thirdParty = Boolean(consentScriptUrl);

  useEffect(() => {
    configure({ purposes, consentScriptUrl });
    if (thirdParty) return undefined;
    setGated(false);
    setVisible(!complete());
    setSelected({ ...store.choice });
    const open = () => {
      returnFocus.current = document.activeElement;
      setSelected({ ...store.choice });
      setCustomising(true);
      setVisible(true);
      window.requestAnimationFrame(() => title.current && title.current.focus());
    };
    const chosen = () => {
      if (!complete()) return; // the service's API answered one purpose: keep asking
      setVisible(false);
      setCustomising(false);
    };
    store.openers.add(open);
    store.listeners.add(chosen);
    return () => {
      store.openers.delete(open);
      store.listeners.delete(chosen);
    };
    // Not on `purposes`: Reflex writes the prop as a literal, a new array on every render; the
    // store keeps the first one (configure's first call wins).
  }, [consentScriptUrl, thirdParty]);

  useReservedSpace(root, visible && !gated);

  if (thirdParty) return null;
  // Always the same element, whether the banner shows or not: a status region that appeared
  // with the confirmation already in it (when the banner went) was not said.
  const status = (
    <p className="sr-only" role="status">
      {confirmation}
    </p>
  );
  if (!visible) return <>{null}{status}</>;

  const every = (value) => Object.fromEntries(purposes.map((purpose) => [purpose.key, value]));
  const choose = (choice) => {
    setChoice(choice, purposes.map((purpose) => purpose.key)); // hides the banner (listener above)
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
          <button type="button" className="consent-button" onClick={() => choose(every(true))}>
            {t.accept_all}
          </button>
          <button type="button" className="consent-button" onClick={() => choose(every(false))}>
            {t.refuse_all}
          </button>
          <button
            type="button"
            className="consent-banner__customise"
            aria-expanded={customising}
            aria-controls={customising ? panelId : undefined}
            onClick={() => {
              if (!customising) setSelected({ ...store.choice });
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
              <input
                id={`${ids}-necessary`}
                type="checkbox"
                checked
                disabled
                readOnly
                aria-labelledby={`${ids}-necessary-label`}
                aria-describedby={`${ids}-necessary-text`}
              />
              <label htmlFor={`${ids}-necessary`}>
                <span className="consent-option__label" id={`${ids}-necessary-label`}>
                  {t.necessary_label} <span className="consent-option__badge">{t.always_on}</span>
                </span>
                <span className="consent-option__text" id={`${ids}-necessary-text`}>
                  {t.necessary_text}
                </span>
              </label>
            </div>
            {purposes.map((purpose) => {
              // Named by its label alone, its text and recipients said after it as a description
              // (the whole label made a name of three sentences).
              const id = `${ids}-${purpose.key}`;
              return (
                <div className="consent-option" key={purpose.key} data-purpose={purpose.key}>
                  <input
                    id={id}
                    type="checkbox"
                    name={purpose.key}
                    checked={Boolean(selected[purpose.key])}
                    onChange={(e) => setSelected((current) => ({ ...current, [purpose.key]: e.target.checked }))}
                    aria-labelledby={`${id}-label`}
                    aria-describedby={`${id}-text ${id}-recipients`}
                  />
                  <label htmlFor={id}>
                    <span className="consent-option__label" id={`${id}-label`}>
                      {purpose.label}
                    </span>
                    <span className="consent-option__text" id={`${id}-text`}>
                      {purpose.text}
                    </span>
                    <span className="consent-option__text" id={`${id}-recipients`}>
                      {purpose.recipients}
                    </span>
                  </label>
                </div>
              );
            })}
            <button type="button" className="consent-button" onClick={() => choose({ ...every(false), ...selected })}>
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
