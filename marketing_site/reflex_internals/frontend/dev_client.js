// The development loop in the open tab (Vite dev server only: dev_plugin.js adds it).
// It tells the loop which page is open (compiled first after a change) and shows the loop's
// message when a saved file has a mistake: the page under it is the last good one.
const BANNER_ID = "site-dev-loop-message";
const COLOURS = { error: ["#7f1d1d", "#fff"], warning: ["#78350f", "#fff"] };

function show(status) {
  let banner = document.getElementById(BANNER_ID);
  if (!status || status.level === "ok" || !status.text) {
    if (banner) banner.remove();
    return;
  }
  if (!banner) {
    banner = document.createElement("div");
    banner.id = BANNER_ID;
    banner.setAttribute("role", "alert");
    banner.style.cssText =
      "position:fixed;z-index:2147483647;left:0;right:0;top:0;padding:12px 48px 12px 16px;" +
      "font:14px/1.45 ui-monospace,Menlo,Consolas,monospace;white-space:pre-wrap;box-shadow:0 2px 8px #0006";
    const close = document.createElement("button");
    close.type = "button";
    close.textContent = "×";
    close.setAttribute("aria-label", "Hide the development message");
    close.style.cssText = "position:absolute;right:12px;top:8px;font-size:20px;background:none;border:0;color:inherit;cursor:pointer";
    close.addEventListener("click", () => banner.remove());
    banner.append(document.createElement("p"), close);
    document.body.append(banner);
  }
  const [background, colour] = COLOURS[status.level] || COLOURS.error;
  banner.style.background = background;
  banner.style.color = colour;
  banner.dataset.level = status.level;
  banner.firstChild.textContent = (status.level === "error" ? "make dev: " : "make dev (warning): ") + status.text;
}

if (import.meta.hot) {
  const hot = import.meta.hot;
  let reported = null;
  const report = () => {
    if (location.pathname === reported) return;
    reported = location.pathname;
    let path = reported;
    try {
      path = decodeURIComponent(reported);
    } catch {}
    hot.send("site-dev:page", { path });
  };
  hot.on("site-dev:status", (status) => {
    if (document.body) show(status);
    else addEventListener("DOMContentLoaded", () => show(status), { once: true });
  });
  hot.on("vite:ws:connect", () => {
    reported = null;
    report();
  });
  report();
  setInterval(report, 500);
}
