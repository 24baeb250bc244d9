"""Guidepup's virtual screen reader in Chromium: what it says while a person goes through a
journey of the site, kept as a transcript (steps and the phrases spoken at each), the checks run
on it, and the readable logs of docs/accessibility/screen-reader/.

A helper module, not a test module (tests/test_screen_reader.py drives the journeys;
tests/test_screen_reader_checks.py proves the checks without a build).

The reader is `@guidepup/virtual-screen-reader` (npm, pinned by tests/screen-reader/package-lock.json),
its browser bundle injected as an init script (the site's Content-Security-Policy refuses an
injected <script>, as for axe-core). It reads the page's accessibility semantics as a screen
reader would say them: "button, Tout accepter", "textbox, Votre email*, required"; it follows
the keyboard focus (Tab is Chromium's own, so the reader hears what a keyboard user reaches), and
it speaks live regions ("polite: …", "assertive: …") when their content changes. It is a model
of a screen reader, not NVDA, JAWS or VoiceOver, and no substitute for a person using one.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from servers import ROOT

PACKAGE = ROOT / "tests" / "screen-reader" / "node_modules" / "@guidepup" / "virtual-screen-reader"
BUNDLE = PACKAGE / "lib" / "esm" / "index.browser.js"
LOGS = ROOT / "docs" / "accessibility" / "screen-reader"

# The bundle is an ES module ending in `export{<a> as Virtual,<b> as virtual};`: run as a classic
# script (what an init script is), its export becomes a global of the page.
_EXPORT = re.compile(r"export\{([\w$]+) as Virtual,([\w$]+) as virtual\};")

# The page's side: start the reader on a container, take what it said since the last take, read
# a container from its first item to its last, move through the headings. `log` is the reader's
# own list of phrases (spokenPhraseLog() returns it), read synchronously by the waits.
HARNESS = r"""
// The reader reads a native checkbox's state from its `checked` attribute, which a click or a
// key changes only as a property (React's controlled boxes too): the attribute follows it here,
// as a browser's accessibility tree follows the property.
document.addEventListener('change', (event) => {
  const box = event.target;
  if (!(box instanceof HTMLInputElement) || !['checkbox', 'radio'].includes(box.type)) return;
  const group = box.type === 'radio' && box.form && box.name ? box.form.querySelectorAll(`input[name="${box.name}"]`) : [box];
  for (const each of group) each.toggleAttribute('checked', each.checked);
}, true);
window.__reader = {
  started: false, log: [], taken: 0,
  async start(selector) {
    const sr = window.__screenReader.virtual;
    if (this.started) await sr.stop();
    const container = selector ? document.querySelector(selector) : document.body;
    if (!container) throw new Error('no ' + selector + ' to read');
    await sr.start({container});
    this.started = true;
    this.log = await sr.spokenPhraseLog();
    this.taken = 0;
  },
  async take() {
    await Promise.resolve();
    const out = this.log.slice(this.taken);
    this.taken = this.log.length;
    return out;
  },
  // Whitespace compared as one space: the words' no-break spaces are plain ones once said.
  since(text) {
    const plain = (t) => t.replace(/\s+/g, ' ');
    return this.log.slice(this.taken).some((phrase) => plain(phrase).includes(plain(text)));
  },
  // Every item of `selector` once, from its first to its last (the cursor comes round after it).
  async readAll(selector) {
    await this.start(selector);
    const sr = window.__screenReader.virtual;
    const first = sr.activeNode;
    for (let i = 0; i < 5000; i++) {
      const before = this.log.length;
      await sr.next();
      if (sr.activeNode === first) { this.log.splice(before); break; }
    }
    const read = await this.take();
    // Back on the whole page (a region may leave it, as the consent banner does), silently.
    if (selector) { await this.start(null); await this.take(); }
    return read;
  },
  async headings(selector) {
    await this.start(selector);
    await this.take();
    const sr = window.__screenReader.virtual;
    let first = null;
    for (let i = 0; i < 500; i++) {
      const before = this.log.length;
      await sr.perform(sr.commands.moveToNextHeading);
      if (first === null) first = sr.activeNode;
      else if (sr.activeNode === first) { this.log.splice(before); break; }
    }
    return this.take();
  },
  async press(key) {
    await window.__screenReader.virtual.press(key);
  },
};
"""


@functools.cache
def init_script() -> str:
    """The reader and its harness, as Playwright's `add_init_script` takes them."""
    if not BUNDLE.exists():
        raise FileNotFoundError(f"{BUNDLE} is missing: `make test` installs it (npm ci in tests/screen-reader)")
    text = BUNDLE.read_text()
    match = _EXPORT.search(text)
    if match is None:
        raise ValueError(f"{BUNDLE} no longer ends in the export this harness expects (a new version?)")
    exported = f"window.__screenReader={{Virtual:{match.group(1)},virtual:{match.group(2)}}};"
    return "(function(){" + text[: match.start()] + exported + text[match.end() :] + "\n})();" + HARNESS


def version() -> str:
    return json.loads((PACKAGE / "package.json").read_text())["version"]


# ----------------------------------------------------------------------------- the transcript


@dataclass
class Step:
    """One thing the person did, and what the reader said meanwhile."""

    action: str
    phrases: list[str] = field(default_factory=list)
    # A whole page (or region) read from top to bottom: its headings are checked in order.
    reading: bool = False


@dataclass
class Transcript:
    journey: str
    lang: str
    title: str
    steps: list[Step] = field(default_factory=list)

    @property
    def phrases(self) -> list[str]:
        return [phrase for step in self.steps for phrase in step.phrases]


# What the person does, in the log's language.
ACTIONS = {
    "fr": {
        "open": "Ouvre {target}",
        "read_page": "Lit la page {target} de haut en bas",
        "read": "Lit « {target} » de haut en bas",
        "headings": "Passe d'un titre à l'autre (touche H) sur {target}",
        "tab": "Tab",
        "tabs": "Tab jusqu'à « {target} »",
        "press": "Touche {target}",
        "type": "Saisit « {target} »",
        "login": "Se connecte chez le fournisseur d'identité (sa page n'est pas celle du site : non lue)",
        "wait": "Attend {target}",
    },
    "en": {
        "open": "Opens {target}",
        "read_page": "Reads the page {target} from top to bottom",
        "read": "Reads “{target}” from top to bottom",
        "headings": "Moves from heading to heading (H key) on {target}",
        "tab": "Tab",
        "tabs": "Tab until “{target}”",
        "press": "Presses {target}",
        "type": "Types “{target}”",
        "login": "Logs in at the identity provider (its page is not the site's: not read)",
        "wait": "Waits for {target}",
    },
}
KEYS = {
    "fr": {"Enter": "Entrée", "Space": "Espace", "ArrowRight": "Flèche droite", "Escape": "Échap"},
    "en": {"Enter": "Enter", "Space": "Space", "ArrowRight": "Right arrow", "Escape": "Escape"},
}


# ----------------------------------------------------------------------------- the checks

# The roles a person operates: each must be announced with a name.
CONTROL_ROLES = frozenset(
    {
        "button",
        "link",
        "textbox",
        "searchbox",
        "combobox",
        "listbox",
        "option",
        "checkbox",
        "radio",
        "switch",
        "slider",
        "spinbutton",
        "tab",
        "menuitem",
        "menuitemcheckbox",
        "menuitemradio",
        "treeitem",
    }
)
# The roles whose state a person must hear (checked or not); a disclosure (a button that controls
# another element) must say whether it is expanded.
CHECKED_ROLES = frozenset({"checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"})
# What the reader says after a role and name: states and properties (the package's labels).
_ATTRIBUTE = re.compile(
    r"(not )?(busy|checked|mixed|current (item|page|step|location|date|time)|disabled|expanded|invalid"
    r"|modal|multi-selectable|partially (checked|pressed)|pressed|read only|required|selected"
    r"|spelling error detected|grammatical error detected)"
    r"|(level|position|set size|column count|column index|column span|row count|row index|row span"
    r"|max value|min value|current value|placeholder|key shortcuts|active descendant) .+"
    r"|\d+ (controls?|error messages?|linked details|previous alternate reading orders?)"
    r"|has popup \w+|orientated \w+|no defined sort order|sorted in \w+ order|(no )?autocomplete.*"
)
_LEVEL = re.compile(r"^heading, .*, level (\d)$")


def parts(phrase: str) -> list[str]:
    return phrase.split(", ")


def role_of(phrase: str) -> str:
    return "" if phrase.startswith(("end of ", "polite: ", "assertive: ")) else parts(phrase)[0]


def said(phrases: list[str], text: str) -> bool:
    """Whether one of `phrases` says `text` (whitespace compared as one space, as in the page)."""
    plain = " ".join(text.split())
    return any(plain in " ".join(phrase.split()) for phrase in phrases)


def is_attribute(text: str) -> bool:
    return bool(_ATTRIBUTE.fullmatch(text))


def name_of(phrase: str) -> str:
    """What a control's phrase says after its role, its states and properties left out (the name,
    then a description if it has one)."""
    said = parts(phrase)[1:]
    while said and is_attribute(said[-1]):
        said.pop()
    return ", ".join(said)


def unnamed_controls(phrases: list[str]) -> list[str]:
    """Controls announced without a name (a role, then at once a state or nothing)."""
    return [p for p in phrases if role_of(p) in CONTROL_ROLES and (len(parts(p)) < 2 or is_attribute(parts(p)[1]))]


def stateless_controls(phrases: list[str]) -> list[str]:
    """Checkable controls announced without whether they are checked, disclosures without whether
    they are expanded."""
    missing = []
    for phrase in phrases:
        said = parts(phrase)[1:]
        role = role_of(phrase)
        if role in CHECKED_ROLES and not {"checked", "not checked", "partially checked"} & set(said):
            missing.append(phrase)
        controls = any(re.fullmatch(r"\d+ controls?", s) for s in said)
        if role == "button" and controls and not {"expanded", "not expanded"} & set(said):
            missing.append(phrase)
    return missing


def heading_problems(phrases: list[str]) -> list[str]:
    """A page read from top to bottom: one level-1 heading, and no heading more than one level
    below the one before it. A dialog's headings are a sequence of their own, under the page's
    level 1 (the consent banner's h2 comes before the page's h1 in the reading order)."""
    problems, levels, stack = [], [], []
    previous = 0
    for phrase in phrases:
        if role_of(phrase) in ("dialog", "alertdialog"):
            stack.append(previous)
            previous = 1
            continue
        if phrase.startswith(("end of dialog", "end of alertdialog")) and stack:
            previous = stack.pop()
            continue
        match = _LEVEL.match(phrase)
        if match is None:
            continue
        level = int(match.group(1))
        if not stack:
            levels.append(level)
        if level > previous + 1:
            problems.append(f"{phrase!r} after a level {previous}")
        previous = level
    if levels.count(1) != 1:
        problems.append(f"{levels.count(1)} level-1 headings (one expected)")
    return problems


def problems(transcript: Transcript) -> list[str]:
    """Everything the checks find in a journey's transcript."""
    found = [f"unnamed: {p!r}" for p in unnamed_controls(transcript.phrases)]
    found += [f"no state: {p!r}" for p in stateless_controls(transcript.phrases)]
    for step in transcript.steps:
        if step.reading:
            found += [f"{step.action}: {p}" for p in heading_problems(step.phrases)]
    return found


# ----------------------------------------------------------------------------- the logs

# What changes from one run to the next, masked in the logs and before they are compared: dates
# and times (the scheduler's slots, the console's rows), and how many slots are left.
_FR_DAYS = "lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|lun\\.|mar\\.|mer\\.|jeu\\.|ven\\.|sam\\.|dim\\."
_FR_MONTHS = (
    "janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre"
    "|janv\\.|févr\\.|avr\\.|juil\\.|sept\\.|oct\\.|nov\\.|déc\\."
)
_EN_DAYS = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Mon|Tue|Wed|Thu|Fri|Sat|Sun"
_EN_MONTHS = (
    "January|February|March|April|May|June|July|August|September|October|November|December"
    "|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec"
)
MASKS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"\b(?:{_FR_DAYS}) \d{{1,2}} (?:{_FR_MONTHS})(?= |,|$|\.)"), "‹date›"),
    (re.compile(rf"\b(?:{_EN_DAYS}),? \d{{1,2}} (?:{_EN_MONTHS})\b"), "‹date›"),
    (re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?(?: ?UTC)?)?"), "‹date›"),
    (re.compile(r"\b\d{2}:\d{2}\b"), "‹time›"),
    # How many days and slots the scheduler offers (radio groups); a list's size stays.
    (re.compile(r"^(radio, .*\bset size )\d+"), r"\1‹n›"),
]


def mask(phrase: str) -> str:
    for pattern, replacement in MASKS:
        phrase = pattern.sub(replacement, phrase)
    return phrase


# How many of the day's slots are still ahead depends on the hour the journey runs: a run of
# unchecked days or slots, once masked, is written as one line, its positions as ‹k›.
_UNCHECKED_OPTION = re.compile(r"radio, (‹date›|‹time›), not checked, position (\d+|‹k›), set size ‹n›")


def fold_options(phrases: list[str]) -> list[str]:
    """Masked phrases with each run of unchecked masked options folded into one line."""
    folded: list[str] = []
    for phrase in phrases:
        option = _UNCHECKED_OPTION.fullmatch(phrase)
        previous = _UNCHECKED_OPTION.fullmatch(folded[-1]) if folded else None
        if option and not (previous and option.group(1) == previous.group(1)):
            folded.append(f"radio, {option.group(1)}, not checked, position ‹k›, set size ‹n›")
        elif not option:
            folded.append(phrase)
    return folded


HEADER = {
    "fr": (
        "Écrit par `make screen-reader-logs` (tests/test_screen_reader.py) : ne pas modifier à la main.\n\n"
        "Ce que dit le lecteur d'écran virtuel de Guidepup ({version}) dans Chromium pendant ce "
        "parcours : chaque étape est ce que fait la personne, suivie de chaque phrase dite. Un lecteur "
        "d'écran modélisé, pas NVDA, JAWS ou VoiceOver, ni une personne qui s'en sert. Ce qui change "
        "d'une exécution à l'autre est masqué : ‹date›, ‹time›, ‹n› (créneaux restants), ‹k› (une suite d'options non cochées)."
    ),
    "en": (
        "Written by `make screen-reader-logs` (tests/test_screen_reader.py): do not edit by hand.\n\n"
        "What Guidepup's virtual screen reader ({version}) says in Chromium during this journey: each "
        "step is what the person does, followed by every phrase said. A modelled screen reader, not "
        "NVDA, JAWS or VoiceOver, nor a person using one. What changes from one run to the next is "
        "masked: ‹date›, ‹time›, ‹n› (slots left), ‹k› (a run of unchecked options)."
    ),
}


def render(transcript: Transcript) -> str:
    """The transcript as the readable Markdown file kept in docs/ (masked)."""
    lines = [f"# {transcript.title}", "", HEADER[transcript.lang].format(version=version()), ""]
    for number, step in enumerate(transcript.steps, 1):
        lines += [f"## {number}. {step.action}", ""]
        lines += [f"- {phrase}" for phrase in fold_options([mask(p) for p in step.phrases])] or ["(—)"]
        lines.append("")
    return "\n".join(lines)


def parse(text: str, journey: str, lang: str) -> Transcript:
    """A log back into its transcript (masked), for the checks without a build."""
    lines = text.splitlines()
    transcript = Transcript(journey, lang, lines[0].removeprefix("# "))
    reads_page = re.compile(re.escape(ACTIONS[lang]["read_page"]).replace(re.escape("{target}"), ".*"))
    for line in lines[1:]:
        if match := re.fullmatch(r"## \d+\. (.*)", line):
            transcript.steps.append(Step(match.group(1), reading=bool(reads_page.fullmatch(match.group(1)))))
        elif line.startswith("- ") and transcript.steps:
            transcript.steps[-1].phrases.append(line[2:])
    return transcript


def log_path(journey: str, lang: str) -> Path:
    return LOGS / lang / f"{journey}.md"


# ----------------------------------------------------------------------------- the driver

# Hydrated: React took over the prerendered page (before it, a key press may do nothing).
HYDRATED = "() => window.__reactRouterDataRouter !== undefined"
MAX_TABS = 80


class Reader:
    """A person with the virtual screen reader on a Playwright page: each method is one step of
    the transcript, recorded with what the reader said during it. Tab, typing and selecting are
    Chromium's own input; other keys go through the reader (`virtual.press`: it presses the key on
    the element under its cursor, then says that element again if it changed, as a screen reader
    says "expanded" or "checked")."""

    def __init__(self, page, transcript: Transcript, site: str):
        self.page = page
        self.transcript = transcript
        self.site = site
        page.add_init_script(init_script())

    def _step(self, key: str, target: str = "", reading: bool = False) -> Step:
        step = Step(
            ACTIONS[self.transcript.lang][key].format(target=target),
            self.page.evaluate("() => window.__reader.take()"),
            reading,
        )
        self.transcript.steps.append(step)
        return step

    def ensure_started(self) -> None:
        """After a document load the reader starts on the new page (as a screen reader speaks a
        page that has loaded); after a client-side page change it is already there."""
        self.page.wait_for_function(HYDRATED)
        self.page.evaluate("async () => { if (!window.__reader.started) await window.__reader.start(); }")

    def open(self, path: str, ready: str = HYDRATED) -> Step:
        self.page.goto(self.site + quote(path, safe="/?=&#"))
        self.page.wait_for_function(ready)
        self.ensure_started()
        return self._step("open", path)

    def read(self, what: str, selector: str | None = None) -> Step:
        """Every item from top to bottom (the whole page, or the element `selector`)."""
        phrases = self.page.evaluate("(s) => window.__reader.readAll(s)", selector)
        key = "read" if selector else "read_page"
        step = Step(ACTIONS[self.transcript.lang][key].format(target=what), phrases, reading=selector is None)
        self.transcript.steps.append(step)
        return step

    def headings(self, what: str) -> Step:
        phrases = self.page.evaluate("() => window.__reader.headings()")
        step = Step(ACTIONS[self.transcript.lang]["headings"].format(target=what), phrases)
        self.transcript.steps.append(step)
        return step

    def focused(self, selector: str) -> bool:
        return self.page.evaluate("(s) => !!document.activeElement && document.activeElement.matches(s)", selector)

    def tab(self) -> Step:
        self.page.keyboard.press("Tab")
        return self._step("tab")

    def tab_to(self, selector: str) -> Step:
        """Tab until the focus is on `selector`; every stop on the way is said."""
        for _ in range(MAX_TABS):
            self.page.keyboard.press("Tab")
            if self.focused(selector):
                break
        else:
            raise AssertionError(f"{MAX_TABS} Tabs never reached {selector}")
        step = self._step("tabs", "")
        name = mask(name_of(step.phrases[-1]) if step.phrases else "") or selector
        name = name if len(name) <= 60 else name[:59] + "…"
        step.action = ACTIONS[self.transcript.lang]["tabs"].format(target=name)
        return step

    def press(
        self, key: str, until: str | list[str] | None = None, state: bool = False, then: str | None = None
    ) -> Step:
        """`key` on the focused element; with `until`, waits until the reader has said it (each
        of them), and
        with `then`, until that function of the page is true (what the step ends with: everything
        said until then is the step's, whatever the machine's speed).

        With `state`, the key goes through the reader (`virtual.press`), which then says the
        element again if it changed (a disclosure now expanded, a box now checked), as a screen
        reader does; otherwise it is Chromium's own key press (the reader's own fails when the
        element leaves the page, as the consent banner's buttons do)."""
        if state:
            # The reader wraps the key in user-event's braces itself: its `key` value (" " for Space).
            self.page.evaluate("(k) => window.__reader.press(k)", " " if key == "Space" else key)
        else:
            self.page.keyboard.press(key)
        for text in [until] if isinstance(until, str) else until or []:
            self.wait_said(text)
        if then is not None:
            self.page.wait_for_function(then)
        return self._step("press", KEYS[self.transcript.lang].get(key, key))

    def type(self, text: str, shown: str | None = None) -> Step:
        self.page.keyboard.type(text)
        return self._step("type", shown or text)

    def replace(self, text: str) -> Step:
        self.page.keyboard.press("ControlOrMeta+a")
        return self.type(text)

    def wait_said(self, text: str) -> None:
        self.page.wait_for_function("(t) => window.__reader.since(t)", arg=text)


Drive = Callable[..., Transcript]
