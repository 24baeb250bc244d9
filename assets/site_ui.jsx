// Client-only behaviour of the layout: no server round trip is needed to open a menu,
// track scrolling or restart a page transition, so it lives here as plain React.
import {
  Children,
  createElement,
  useEffect,
  useId,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import { useLocation, useNavigate } from "react-router";

// First-party audience measurement (docs/audience.md): one beacon per page view, client-side
// navigations included, to a plain route (no websocket). It carries the path, the page's
// language, the visit's referring host and UTM tags, and a device class from the viewport
// width: nothing else, and nothing is written to cookies or storage. The visit's attribution
// lives in this module's memory (it ends with the tab or a reload) and the lead and booking
// forms send it with their fields. Global Privacy Control, Do Not Track and the privacy
// policy's opt-out (the only key this writes, and only when asked) mean nothing is sent.
export const AUDIENCE_OPT_OUT_KEY = "nereo_audience_opt_out";
const UTM_TAGS = ["utm_source", "utm_medium", "utm_campaign", "utm_content", "utm_term"];
let visit = null;

export function measurementRefused() {
  if (navigator.globalPrivacyControl === true) return "gpc";
  if (navigator.doNotTrack === "1" || window.doNotTrack === "1") return "dnt";
  try {
    if (window.localStorage.getItem(AUDIENCE_OPT_OUT_KEY) === "1") return "opt-out";
  } catch (blocked) {
    // storage disabled: no opt-out can have been recorded
  }
  return "";
}

// Where this visit came from: its first page, the referring site's host (not its URL) and the
// UTM tags of the address it landed on. Empty when the visitor refuses measurement.
export function visitAttribution() {
  if (measurementRefused()) return {};
  if (visit === null) {
    const params = new URLSearchParams(window.location.search);
    let referrer = "";
    try {
      const host = document.referrer ? new URL(document.referrer).hostname : "";
      referrer = host === window.location.hostname ? "" : host;
    } catch (notUrl) {
      referrer = "";
    }
    visit = { landing_page: window.location.pathname, referrer };
    for (const tag of UTM_TAGS) visit[tag] = (params.get(tag) || "").slice(0, 100);
  }
  return visit;
}

function sendPageView(lang) {
  const attribution = visitAttribution();
  if (!attribution.landing_page || !navigator.sendBeacon) return;
  const width = window.innerWidth;
  const { landing_page: _landing, ...source } = attribution;
  const device = width < 768 ? "mobile" : width < 1024 ? "tablet" : "desktop";
  navigator.sendBeacon("/api/v1/audience", JSON.stringify({ path: window.location.pathname, lang, device, ...source }));
}

// Whether the page being rendered is the one the document was loaded with (see PageFrame).
// Set false once a page has been committed, never while rendering: React may render a page,
// throw the render away (a part suspended while hydrating, on a slow machine or connection)
// and render it again; a flag spent in the first render made the document's own page play the
// entrance and pull the focus to its heading, away from where Tab starts.
let documentPage = true;

// Wraps every page: sets <html lang>, scrolls to the top (or to the #anchor) on mount,
// plays the 300 ms fade-and-scale entrance (CSS class `page-enter`) on a page change and
// counts the view.
// The page the document opens with is shown as prerendered, without it: faded in, its
// largest element would count as painted only once the fade ends, after the scripts (the
// thank-you pages' illustration: LCP 2.3 s for a first paint at 0.75 s on Lighthouse mobile).
// After a client-side page change (`entrance`), focus moves to the new page's heading, so
// that a screen reader announces the page and Tab starts there; to the #anchor's own heading
// when the link named one (an offer on the pricing page): without it, focus stayed on the body
// and a screen reader said nothing of the page the link had opened.
function focusNewPage(anchor) {
  const main = document.getElementById("contenu");
  const heading = anchor ? anchor.querySelector("h1, h2, h3, h4") : main && main.querySelector("h1");
  const target = heading || anchor || main;
  if (!target) return;
  if (target !== main && !target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
  target.focus({ preventScroll: true });
}

export function PageFrame({ lang, children, className }) {
  const { pathname } = useLocation();
  useEffect(() => {
    sendPageView(lang);
  }, [pathname]);
  // Prerendering renders every page in one process: never an entrance there.
  const [entrance] = useState(() => typeof window !== "undefined" && !documentPage);
  useEffect(() => {
    documentPage = false;
  }, []);
  useEffect(() => {
    document.documentElement.lang = lang;
    const id = decodeURIComponent(window.location.hash.slice(1));
    const target = id && document.getElementById(id);
    if (target) {
      target.scrollIntoView();
    } else {
      window.scrollTo(0, 0);
    }
    if (entrance) focusNewPage(target);
  }, [lang]);
  return (
    <div className={className} data-entrance={entrance ? "" : undefined}>
      {children}
    </div>
  );
}

// The site header: `data-scrolled` once the page has scrolled, and a menu that
// collapses below 768 px behind a toggle button (aria-expanded, Escape closes).
// The first child is the brand link, the others make up the menu.
export function SiteHeader({ variant, menuLabel, closeLabel, children }) {
  const [brand, ...menu] = Children.toArray(children);
  const [scrolled, setScrolled] = useState(false);
  const [open, setOpen] = useState(false);
  const menuId = useId();
  useEffect(() => {
    // The scrolled bar is 12 px shorter, which moves the page under the reader by as much: one
    // threshold would flip the style every frame near it (scroll anchoring), so the bar turns
    // compact past 24 px and back only under 4 px.
    const onScroll = () => setScrolled((was) => (was ? window.scrollY > 4 : window.scrollY > 24));
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);
  const toggle = useRef(null);
  const header = useRef(null);
  useEffect(() => {
    if (!open) return undefined;
    // Escape closes the menu and gives focus back to the button that opened it.
    const onKey = (e) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      toggle.current && toggle.current.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);
  // Focus leaving the header (Tab past the menu's last item) closes the menu: it would
  // otherwise cover the page the focus has gone to.
  const onBlur = (e) => {
    if (open && e.relatedTarget && header.current && !header.current.contains(e.relatedTarget)) setOpen(false);
  };
  // A click on a link inside the menu closes it (the page changes underneath).
  const onMenuClick = (e) => {
    if (e.target.closest("a")) setOpen(false);
  };
  return (
    <header
      ref={header}
      onBlur={onBlur}
      className="site-header"
      data-variant={variant}
      data-scrolled={scrolled ? "true" : "false"}
      data-menu-open={open ? "true" : "false"}
    >
      <div className="site-header__bar">
        {brand}
        <button
          ref={toggle}
          type="button"
          className="site-header__toggle"
          aria-expanded={open}
          aria-controls={menuId}
          aria-label={open ? closeLabel : menuLabel}
          onClick={() => setOpen(!open)}
        >
          <span className="site-header__toggle-icon" aria-hidden="true" />
        </button>
        <nav id={menuId} className="site-header__menu" aria-label={menuLabel} onClick={onMenuClick}>
          {menu}
        </nav>
      </div>
    </header>
  );
}

// A disclosure button with a panel of links (the Solutions dropdown): opens on click,
// Enter or Space, closes on Escape (focus back to the button), a click elsewhere or focus
// moving out of it.
export function Disclosure({ label, className, children }) {
  const [open, setOpen] = useState(false);
  const root = useRef(null);
  const button = useRef(null);
  const panelId = useId();
  useEffect(() => {
    if (!open) return undefined;
    const onDocClick = (e) => {
      if (root.current && !root.current.contains(e.target)) setOpen(false);
    };
    const onKey = (e) => {
      if (e.key === "Escape") {
        setOpen(false);
        button.current && button.current.focus();
      }
    };
    document.addEventListener("click", onDocClick);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("click", onDocClick);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  // Focus leaving the disclosure (Tab past its last link) closes it.
  const onBlur = (e) => {
    if (open && e.relatedTarget && root.current && !root.current.contains(e.relatedTarget)) setOpen(false);
  };
  return (
    <div ref={root} className={className} data-open={open ? "true" : "false"} onBlur={onBlur}>
      <button
        ref={button}
        type="button"
        className="disclosure__button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
      >
        {label}
        <span className="disclosure__chevron" aria-hidden="true" />
      </button>
      <div id={panelId} className="disclosure__panel" hidden={!open} onClick={(e) => e.target.closest("a") && setOpen(false)}>
        {children}
      </div>
    </div>
  );
}

// The message language of the visitor: "fr" when the browser's first language is fr*,
// "en" for any other, "fr" while unknown (prerendering and the first render, so the
// prerendered HTML and hydration agree).
export function browserMessageLanguage(language) {
  if (!language) return "fr";
  return language.toLowerCase().startsWith("fr") ? "fr" : "en";
}

export function useBrowserLang() {
  const [lang, setLang] = useState("fr");
  useEffect(() => {
    setLang(browserMessageLanguage(navigator.language));
  }, []);
  return lang;
}

// Document navigations and cookie clean-up asked for by the server's auth state. The
// backend cannot run scripts in the page (the CSP forbids eval), so it sets props instead.
// `clearCookie`: the names of the readable cookies to remove, separated by spaces.
export function BackendNavigation({ to, replace, clearCookie }) {
  useEffect(() => {
    for (const name of (clearCookie || "").split(" ")) {
      if (name) document.cookie = `${name}=; Max-Age=0; path=/`;
    }
  }, [clearCookie]);
  useEffect(() => {
    if (!to) return;
    if (replace) window.location.replace(to);
    else window.location.assign(to);
  }, [to, replace]);
  return null;
}

// A form the browser submits itself (Reflex's forms always prevent the native submit): the
// login start (GET /auth/login) and the logout (POST /auth/logout) are document navigations.
export function NativeForm({ children, ...props }) {
  return <form {...props}>{children}</form>;
}

// The navbar's Login: a document navigation to the backend's login start that comes back to
// exactly the page shown, path and query as the visitor sees them (on a not-found page, the
// address that was asked for). The prerendered HTML cannot know them: until hydrated the
// link returns to the page's own path (`href`), then `return_to` follows the location.
export function LoginLink({ href, children, ...props }) {
  const location = useLocation();
  const [target, setTarget] = useState(href);
  useEffect(() => {
    const url = new URL(href, window.location.origin);
    url.searchParams.set("return_to", window.location.pathname + window.location.search);
    setTarget(url.pathname + url.search);
  }, [href, location.pathname, location.search]);
  return (
    <a href={target} {...props}>
      {children}
    </a>
  );
}

// A region of the page with nothing to hydrate (no state, no handlers, no widget: see
// marketing_site/reflex_internals/hydration.py). While React hydrates the prerendered document,
// it renders the region's element with `dangerouslySetInnerHTML` set to a constant, so React
// neither builds nor checks the hundreds of fibers inside it and keeps the server's DOM as it
// is (the same object on every render: React never writes that innerHTML). Mounted any other
// way (a client-side navigation), it renders its children like any element. Links inside a
// kept region are plain anchors, so one click handler gives them react-router's navigation.
const KEEP_SERVER_HTML = { __html: "" };
const subscribeNever = () => () => {};
// During hydration React reads the server snapshot: `true` only then.
const hydratingSnapshot = () => true;
const renderedSnapshot = () => false;

export function StaticHtml({ element, attrs, children }) {
  const hydrating = useSyncExternalStore(subscribeNever, renderedSnapshot, hydratingSnapshot);
  // Under `make dev` (Vite's dev server) the region renders its children: a saved change
  // then reaches it in place, where kept server HTML would stay as it was.
  const [keepServerHtml] = useState(hydrating && typeof window !== "undefined" && !import.meta.env.DEV);
  const navigate = useNavigate();
  if (!keepServerHtml) return createElement(element, attrs, children);
  return createElement(element, {
    ...attrs,
    dangerouslySetInnerHTML: KEEP_SERVER_HTML,
    suppressHydrationWarning: true,
    onClick: (event) => followClientLink(event, navigate),
  });
}

// What a react-router <Link> does on click, for the anchors it rendered (`data-discover`).
function followClientLink(event, navigate) {
  if (event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
  const anchor = event.target.closest("a[data-discover]");
  if (!anchor || (anchor.target && anchor.target !== "_self") || anchor.hasAttribute("download")) return;
  const to = anchor.getAttribute("href");
  event.preventDefault();
  const here = window.location.pathname + window.location.search + window.location.hash;
  const url = new URL(to, window.location.href);
  navigate(to, { replace: url.pathname + url.search + url.hash === here });
}

// The privacy policy's opt-out: says whether this browser is measured and switches it. The
// choice is the one key the measurement may write (`nereo_audience_opt_out`, only on request).
export function AudienceOptOut({ measuredText, refusedText, signalText, optOutLabel, optInLabel }) {
  const [state, setState] = useState("");
  useEffect(() => setState(measurementRefused() || "measured"), []);
  const choose = (optOut) => {
    try {
      if (optOut) window.localStorage.setItem(AUDIENCE_OPT_OUT_KEY, "1");
      else window.localStorage.removeItem(AUDIENCE_OPT_OUT_KEY);
    } catch (blocked) {
      return;
    }
    setState(measurementRefused() || "measured");
  };
  if (!state) return null;
  if (state === "gpc" || state === "dnt") {
    return (
      <p className="audience-opt-out" role="status" data-state={state}>
        {signalText}
      </p>
    );
  }
  const measured = state === "measured";
  return (
    <p className="audience-opt-out" data-state={state}>
      <span role="status">{measured ? measuredText : refusedText}</span>{" "}
      <button type="button" className="btn btn--secondary" onClick={() => choose(measured)}>
        {measured ? optOutLabel : optInLabel}
      </button>
    </p>
  );
}

// The not-found page's suggestions: the known pages of its language nearest to the path
// asked for, at most `limit`, nearest first. One prerendered page answers every unknown path
// (from the app and from nginx alike), so the path is read here, in the browser, and
// compared with the route table the page carries (`pages`: [{path, title}]). Case and
// accents are ignored; only the part after the language prefix is compared.
const comparable = (path, prefix) =>
  path
    .slice(prefix.length)
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/^\/+|\/+$/g, "");

function editDistance(a, b) {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

export function nearestPages(requested, pages, prefix, limit) {
  const asked = comparable(requested, prefix);
  return pages
    .map((page) => {
      const known = comparable(page.path, prefix);
      // Close enough to be a typo: a few edits, more for longer paths.
      const allowed = Math.max(2, Math.ceil(Math.max(asked.length, known.length) * 0.34));
      return { ...page, distance: editDistance(asked, known), allowed };
    })
    .filter((page) => page.distance <= page.allowed)
    .sort((a, b) => a.distance - b.distance || a.path.length - b.path.length)
    .slice(0, limit);
}

export function NotFoundSuggestions({ pages, prefix, limit, heading, className }) {
  const location = useLocation();
  const [found, setFound] = useState([]);
  useEffect(() => {
    let requested = location.pathname;
    try {
      requested = decodeURIComponent(requested);
    } catch {
      // A malformed escape: compare the path as it came.
    }
    setFound(nearestPages(requested.normalize("NFC"), pages, prefix, limit));
  }, [location.pathname, pages, prefix, limit]);
  if (found.length === 0) return null;
  return (
    <nav className={className} aria-label={heading} data-testid="not-found-suggestions">
      <h2 className="not-found__suggestions-title">{heading}</h2>
      <ul className="not-found__suggestions-list">
        {found.map((page) => (
          <li key={page.path}>
            <a href={page.path}>{page.title}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
