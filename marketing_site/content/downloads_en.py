"""The five downloadable PDF documents in English, for the English pages (SPEC §3).

The same documents as `downloads` (same keys, same structure, same facts), written for English
readers; `downloads.documents_in("en")` returns them and `scripts/make_documents.py` lays them
out into files/ next to the French ones. Display names are English. Write straight apostrophes:
the generator makes them typographic. Only characters of Windows-1252 can be used.
"""

from marketing_site.brand import BRAND_NAME, LEGAL_NAME
from marketing_site.content.downloads import _box, _h, _lead, _p, _section, _ul
from marketing_site.content.downloads import _trend as _french_trend

B = BRAND_NAME

COVER_TAGLINE_EN = f"{B} · The client portal and CRM for wealth management professionals"
CONTENTS_HEADING_EN = "Contents"

_ABOUT = _section(
    f"About {B}",
    _p(
        f"{B} publishes a white-label client portal and a CRM designed for private banks, asset "
        "managers, family offices and independent wealth advisers. Four offers let you choose your "
        "scope on a single platform:"
    ),
    _ul(
        ("Engage", "the premium white-label client portal;"),
        ("Manage", "the adviser's CRM;"),
        ("Interact", "the client portal and the CRM together;"),
        ("Complete", "Interact plus KYC onboarding and compliance controls."),
    ),
    _p(
        "To see these tools at work, book a thirty-minute demonstration with a consultant, or start a "
        "free 30-day trial on demonstration data."
    ),
)

# --------------------------------------------------------------------------- the e-book

EBOOK = {
    "file": "ebook-next-generation-wealth-manager.pdf",
    "display_name": f"{B} - The next-generation wealth manager - ebook.pdf",
    "label": "E-book",
    "title": "The next-generation wealth manager",
    "subtitle": "5 reasons to digitalise the client relationship",
    "sections": [
        _section(
            "Introduction: the client relationship is changing pace",
            _lead(
                "Private banks, asset managers, family offices and independent wealth advisers share one "
                "conviction: the value of their business rests on trust and on the quality of advice. "
                "Digital does not call that conviction into question; it changes how it is lived day to day."
            ),
            _p(
                "Client expectations are shifting, regulatory obligations keep growing and advisers' time "
                "is increasingly taken up by administrative tasks. In this context, digitalising the client "
                "relationship does not mean replacing the adviser with a screen. It means giving the adviser "
                "time back, giving clients a permanent view of their wealth and making the regulatory file "
                "reliable."
            ),
            _p(
                "This e-book sets out five reasons to act. Each chapter starts from a concrete expectation "
                "of your clients or your teams, describes what a suitable tool changes in daily practice, "
                "and ends with questions to ask yourself before choosing your tools."
            ),
            _h("Who is this e-book for?"),
            _ul(
                "Chief executives and COOs of private banks",
                "Heads of asset management firms and family offices",
                "Independent wealth advisers",
                "Heads of client relationship and digital transformation",
            ),
        ),
        _section(
            "1. Your clients already live digitally",
            _lead(
                "They check their accounts on their phones, sign contracts online and message most of their "
                "service providers. They expect the same ease from the firm that manages their wealth."
            ),
            _p(
                "For many wealthy clients, however, the relationship with their manager is still paced by "
                "the quarterly statement, postal mail and scattered e-mails. The gap is widening between the "
                "experience they enjoy elsewhere and the one offered by their private banker or adviser. "
                "That gap is not only a matter of comfort: a client who cannot find information when they "
                "look for it calls, chases, or ends up having doubts."
            ),
            _h("What your clients expect"),
            _ul(
                (
                    "An up-to-date view of their wealth",
                    "valuation, performance, allocation by asset class and latest transactions, available at "
                    "any time, without waiting for the next meeting.",
                ),
                (
                    "Their documents in one place",
                    "statements, management reports, contracts, trade confirmations and tax documents, "
                    "filed and found in seconds.",
                ),
                (
                    "A secure channel",
                    "writing to their adviser without using a personal messaging app, attaching a document, "
                    "arranging a meeting.",
                ),
                (
                    "An experience worthy of the firm",
                    "a space in your colours, understated and polished, on desktop as on mobile.",
                ),
            ),
            _h("What digital changes"),
            _p(
                "A white-label client portal becomes your firm's everyday shop window. Clients find their "
                "reporting and documents there; advisers publish an analysis, upload a report or offer a "
                "meeting slot. Every exchange is kept and linked to the client record, so information is no "
                "longer scattered across individual mailboxes."
            ),
            _p(
                "The portal does not replace the meeting: it prepares and extends it. Clients arrive better "
                "informed, advisers know what the client has looked at, and the conversation focuses on "
                "what matters: projects, investment decisions, succession."
            ),
            _box(
                "Questions to ask yourself",
                "How long does it take a client today to obtain an up-to-date valuation of their portfolio?",
                "Through which channels do your clients send you their documents, and where are those "
                "documents kept?",
                "Does your client space reflect the level of service you promise in meetings?",
            ),
        ),
        _section(
            "2. Advisers' time is your scarcest resource",
            _lead(
                "In private wealth management, value is created in meetings, on the phone and in preparing "
                "a recommendation. Yet a large part of an adviser's day goes into finding information, "
                "re-keying data or chasing a missing document."
            ),
            _p(
                "Every minute saved on administration is a minute given back to advice. The point is not to "
                "make teams work faster, but to let them know, every morning, where to start."
            ),
            _h("The tools that free up time"),
            _ul(
                (
                    "Smart to-do list",
                    "the day's actions are grouped and ranked: follow-ups, documents to collect, meetings to "
                    "prepare, alerts to handle, the most urgent first.",
                ),
                (
                    "Priority alerts",
                    "useful signals surface by themselves, in four categories: behaviour, articles and "
                    "content, investment portfolios and compliance. For example, a discretionary portfolio "
                    "that falls by more than 10% triggers a high-priority alert.",
                ),
                (
                    "Synchronised calendar",
                    "two-way synchronisation with Google Calendar and Outlook avoids double entry: a meeting "
                    "moved on one side is updated on the other.",
                ),
                (
                    "Meeting notes",
                    "notes are taken directly in the client record, turned into tasks and shared with the "
                    "middle office, without re-keying.",
                ),
                (
                    "Task manager",
                    "tasks are assigned, dated and tracked, linked to a client or a group, so that nothing "
                    "gets lost between front and middle office.",
                ),
            ),
            _p(
                "Taken one by one, each of these tools saves a few minutes. Brought together in one space "
                "and fed by the same data, they change how the day is organised: advisers no longer look for "
                "information, it comes to them when it is useful."
            ),
            _h("A word of caution"),
            _p(
                "One more tool can also become one more burden. Digitalisation saves time if it replaces "
                "existing tools (spreadsheets, notebooks, parallel calendars), not if it is added on top of "
                "them. Choosing a single platform, shared by adviser and client, is decisive in this respect."
            ),
            _box(
                "Questions to ask yourself",
                "How many tools does an adviser open to prepare a meeting?",
                "How do your advisers find out today that a discretionary portfolio has just fallen sharply?",
                "Are meeting notes shared, or do they stay in personal notebooks?",
            ),
        ),
        _section(
            "3. Compliance can become an advantage",
            _lead(
                "Know your client, anti-money laundering, suitability of advice: regulatory obligations weigh "
                "on every onboarding and throughout the relationship. Handled on paper, they lengthen lead "
                "times and tire clients. Digitalised, they become a mark of seriousness."
            ),
            _p(
                "Private wealth firms and independent advisers apply a demanding set of obligations: due "
                "diligence under anti-money laundering and counter-terrorist financing rules (AML/CFT), "
                "assessment of the suitability or appropriateness of services under MiFID II, and collection "
                "of demands and needs for insurance distribution under the Insurance Distribution Directive "
                "(IDD). No tool exempts you from these obligations; a good tool helps you meet them "
                "consistently and traceably."
            ),
            _h("What a digital journey brings"),
            _ul(
                (
                    "Faster onboarding",
                    "the checklist of expected documents is e-mailed to the client, who uploads their "
                    "supporting documents online; the adviser sees at any time what is missing.",
                ),
                (
                    "Tailored questionnaires",
                    "KYC questionnaires are tailored to the type of client (individual, legal entity, "
                    "non-resident...) and to your know-your-client policy.",
                ),
                (
                    "Traceable controls",
                    "missing or expired documents, inconsistent answers, profiles to review: each anomaly "
                    "is reported, assigned and followed up until it is resolved, with a searchable history.",
                ),
                (
                    "Up-to-date profiles",
                    "clients whose profile is due for renewal are invited to confirm or update their "
                    "information online; successive versions are kept.",
                ),
            ),
            _p(
                "For controls that require specialised databases, such as screening clients against "
                "sanctions lists and lists of politically exposed persons, or for the electronic signature "
                "of agreements, integrating specialised partners avoids multiplying tools without giving up "
                "their expertise."
            ),
            _h("Why it is an advantage"),
            _p(
                "A client who completes their file in one go, from home, keeps a better impression of their "
                "onboarding than a client chased several times by post. A compliance team with a reliable "
                "dashboard spends its time on the files that deserve it. And during an inspection, being "
                "able to show who checked what, and when, makes all the difference."
            ),
            _box(
                "Questions to ask yourself",
                "How much time passes between the first meeting and the actual opening of an account or "
                "mandate?",
                "Do you know, without a manual search, which clients have an expired identity document?",
                "Can you quickly reconstruct the history of the controls carried out on a file?",
            ),
        ),
        _section(
            "4. Client data is an asset to put to work",
            _lead(
                "Every wealth management firm has detailed knowledge of its clients. But that knowledge is "
                "often scattered: in advisers' memories, in spreadsheets, in e-mails. Structured and shared, "
                "it lets you anticipate needs rather than react to requests."
            ),
            _h("Structuring client knowledge"),
            _ul(
                (
                    "A 360° client record",
                    "assets, contracts, documents, history of exchanges and meetings, objectives and risk "
                    "profile, on a single screen.",
                ),
                (
                    "Configurable fields",
                    "your own headings, value lists and criteria reflect your segmentation and your ways of "
                    "working.",
                ),
                (
                    "Contact groups",
                    "families, individuals, legal entities and joint ownerships: wealth is followed as it "
                    "really is, with the links between its members and its holding structures.",
                ),
            ),
            _h("From data to action"),
            _p(
                "Well-structured data feeds alerts: a client who reads an analysis on succession several "
                "times, a portfolio drifting from its target allocation, a risk profile due for renewal. It "
                "also feeds targeted publishing: each market analysis or newsletter is matched, through a "
                "relevance score, with the clients whose profile and plans suit it best."
            ),
            _p(
                "Advisers no longer endure data: they use it to call the right client, at the right time, "
                "about the right subject."
            ),
            _h("Trust as a precondition"),
            _p(
                "Wealth data is among the most sensitive there is. Using it requires a clear framework: "
                "defined purposes, role-based access, controlled hosting, compliance with the GDPR. "
                "Personalisation only has value if clients trust the way their information is used."
            ),
            _box(
                "Questions to ask yourself",
                "If an adviser leaves the firm, how much of their knowledge of clients stays in your tools?",
                "Can you identify in a few clicks the clients concerned by a new analysis or a new product?",
                "Do your tools reflect your clients' family ties and holding structures?",
            ),
        ),
        _section(
            "5. The next generation will choose its adviser",
            _lead(
                "Wealth transfer is prepared with today's clients, but also with their heirs. They grew up "
                "with digital and will judge your firm, among other things, on the quality of its digital "
                "experience."
            ),
            _p(
                "On a succession or a gift, nothing obliges heirs to stay with their parents' adviser. Their "
                "decision will depend on the relationship they have built with that adviser beforehand, on "
                "how well they understand the adviser's work and on how easily they can follow their wealth."
            ),
            _h("Preparing the relationship with heirs"),
            _ul(
                (
                    "Knowing the family",
                    "the family groups of the client record let you follow the links between generations "
                    "and prepare meetings devoted to wealth transfer.",
                ),
                (
                    "Offering a modern experience",
                    "a client space available on desktop and mobile makes wealth readable for a generation "
                    "used to following everything online.",
                ),
                (
                    "Sharing your expertise",
                    "analyses, newsletters and targeted content explain your convictions and your method, "
                    "well beyond the annual meeting.",
                ),
                (
                    "Staying reachable",
                    "secure messaging and meeting proposals in a few clicks match the habits of clients used "
                    "to instant answers.",
                ),
            ),
            _p(
                "The stakes go beyond brand image. A firm that has not built a relationship with the next "
                "generation before the transfer risks seeing assets leave at the very moment they change hands."
            ),
            _box(
                "Questions to ask yourself",
                "Do you know the heirs of your main clients, and have they already met their adviser?",
                "Would your digital experience bear comparison with the services they use every day?",
                "Does your content also address the next generation's concerns: responsible investment, "
                "entrepreneurship, real estate?",
            ),
        ),
        _section(
            "Conclusion: taking action",
            _p(
                "The five reasons set out in this e-book reinforce one another. A better-informed client "
                "calls on their adviser when it matters; an adviser freed from administration has time for "
                "the relationship; an up-to-date compliance file protects the firm; structured data makes "
                "advice more relevant; a polished experience wins the loyalty of the next generation."
            ),
            _h("A four-step approach"),
            _ul(
                (
                    "Start from the pain points",
                    "list, with your advisers and a few trusted clients, the tasks and exchanges that waste "
                    "the most time.",
                ),
                (
                    "Choose a first scope",
                    "start with the client portal, the CRM or onboarding, depending on what is most urgent; "
                    "a modular platform then lets you widen the scope without changing tools.",
                ),
                (
                    "Involve compliance from the start",
                    "your compliance officers approve the questionnaires, checklists and control workflows "
                    "before they go live.",
                ),
                (
                    "Measure and adjust",
                    "track adoption by clients and teams, and adjust the settings over the first weeks.",
                ),
            ),
        ),
        _ABOUT,
    ],
}

# --------------------------------------------------------------------------- the white paper

_TREND_HEADINGS = ("What changes for clients", "What changes for teams", "First steps")


def _trend(heading: str, lead: str, clients: list[str], teams: list[str], steps: list[str]) -> dict:
    return _french_trend(heading, lead, clients, teams, steps, headings=_TREND_HEADINGS)


WHITE_PAPER = {
    "file": "white-paper-digital-trends-wealth-management.pdf",
    "display_name": f"{B} - Digital trends in wealth management - white paper.pdf",
    "label": "White paper",
    "title": "Digital trends in wealth management",
    "subtitle": (
        "Six shifts reshaping the business of private banks, asset managers and independent advisers, "
        "and the choices they call for today"
    ),
    "sections": [
        _section(
            "Foreword",
            _lead(
                "Client portal, data, online KYC, sales management: wealth management is going through a "
                "deep transformation that affects the client experience as much as the organisation of teams."
            ),
            _p(
                "This white paper describes six underlying trends at work in private banks, asset management "
                "firms, family offices and independent wealth advisers. It does not rely on market figures, "
                "which age quickly: it focuses on the changes observable in the business and on the concrete "
                "questions they raise."
            ),
            _p(
                "For each trend, we describe what changes for clients, what changes for teams, and then the "
                "first steps to prepare for it. The trends can be read separately; together they form a "
                "single movement, summed up in the conclusion."
            ),
            _h("Who is this white paper for?"),
            _ul(
                "Chief executives and COOs of private banks",
                "Heads of compliance and internal control",
                "Heads of asset management firms and family offices",
                "Independent wealth advisers",
            ),
        ),
        _trend(
            "Trend 1: the hybrid model takes hold",
            "The adviser stays at the centre, but the relationship continues online: a white-label client "
            "portal becomes the firm's everyday shop window.",
            [
                "Wealthy clients do not choose between digital and human: they want both. They expect to "
                "check their wealth, find a document or ask a question at any hour, and to meet their "
                "adviser for the decisions that matter: an allocation to review, the sale of a business, a "
                "wealth transfer. The portal becomes the place of the everyday relationship; the meeting "
                "remains the place of advice.",
            ],
            [
                "The hybrid model calls for a continuous journey. What the client has looked at online must "
                "be visible to the adviser; what was decided in a meeting must appear in the client's space. "
                "This requires one tool shared by client and adviser, rather than a client website on one "
                "side and a CRM on the other.",
                "This is where white label comes into its own: clients do not log in to a third-party tool, "
                "but to the space of their bank or adviser, whose identity and standards they recognise.",
            ],
            [
                "Map the current points of contact with clients: post, e-mail, phone, meetings, online space.",
                "Identify the information clients ask for most often between two meetings.",
                "Decide what is self-service (consultation, documents) and what must remain an exchange "
                "with the adviser.",
                "Choose a portal in the firm's colours, connected to the advisers' CRM.",
            ],
        ),
        _trend(
            "Trend 2: personalisation runs on data",
            "Behavioural alerts, portfolio monitoring and targeted content with a relevance score: the right "
            "message, to the right client, at the right time.",
            [
                "Clients expect their manager to know them: their plans, their constraints, their interests. "
                "A newsletter identical for everyone no longer meets that expectation. They want to receive "
                "the analysis that concerns their situation, whether it is a reflection on wealth transfer as "
                "a family milestone approaches or an update on bond markets for a cautious portfolio.",
            ],
            [
                "Personalisation rests on structured, shared client data: risk profile, objectives, "
                "composition of assets, life stages, interests. On that basis, three mechanisms become "
                "possible. Behavioural alerts flag a client who has not logged in for a long time or who "
                "looks at the same offer several times. Portfolio monitoring flags a drift from the target "
                "allocation or a threshold being crossed. Finally, targeted publishing gives each piece of "
                "content a relevance score against client profiles.",
                "Personalisation also has regulatory limits: marketing communications must remain clear, "
                "fair and not misleading, and a personal recommendation is advice, with the obligations "
                "that come with it. Tools must allow content to be approved before it is published.",
            ],
            [
                "List the client data advisers actually use, and the data that is missing.",
                "Define a few priority content themes and the client profiles they are aimed at.",
                "Set simple alert thresholds, for example a fall of more than 10% in a discretionary "
                "portfolio, before refining them.",
                "Plan an approval workflow for content with compliance.",
            ],
        ),
        _trend(
            "Trend 3: onboarding goes digital",
            "Online KYC questionnaires, document checklists, electronic signature and automated anti-money "
            "laundering checks shorten onboarding.",
            [
                "For a new client, onboarding is the first concrete experience of the firm. Paper forms, "
                "documents sent by post and then sent back because a page is missing: the first contact can "
                "quickly become an ordeal. Clients now expect to build their file online, at their own pace, "
                "knowing at every moment what is still to be provided.",
            ],
            [
                "Onboarding concentrates obligations: identifying and verifying the identity of the client "
                "and, where applicable, of the beneficial owner under AML/CFT rules; assessing knowledge, "
                "experience, financial situation and objectives under MiFID II; collecting demands and needs "
                "under the IDD for insurance contracts. A digital journey structures this collection: "
                "document checklists by type of client sent by e-mail, customisable KYC questionnaires, "
                "completeness and consistency checks, electronic signature and automated screening against "
                "sanctions lists and lists of politically exposed persons, the last two services usually "
                "provided with specialised partners.",
                "Digitalisation does not transfer responsibility: the firm alone decides whether to accept a "
                "client and how to classify their risk. It does, however, make every step traceable, which "
                "makes internal and external inspections easier.",
            ],
            [
                "Agree with compliance the list of documents expected for each type of client.",
                "Review existing questionnaires: remove duplicates, clarify questions, define conditional "
                "sequences.",
                "Decide which checks are automated (completeness, expiry dates, consistency) and which stay "
                "manual.",
                "Choose electronic signature and anti-money laundering screening partners suited to your "
                "volumes.",
            ],
        ),
        _trend(
            "Trend 4: the CRM drives business development",
            "Pipeline, dashboards and shared tasks give management a reliable view of new money and of the "
            "teams' activity.",
            [
                "Clients do not see the CRM, but they feel its effects: an adviser who remembers the last "
                "conversation, a follow-up made at the right time, a proposal that arrives on the promised "
                "date. Conversely, a forgotten request or a question asked twice leaves a lasting impression.",
            ],
            [
                "For management, the CRM has become the tool for steering business development. A pipeline "
                "organised in stages (first contact, discovery, proposal, signature) gives a view of "
                "potential new money and its timing. Dashboards set activity (meetings held, proposals sent) "
                "against results (opportunities won, new money raised), by adviser, by team and by period. "
                "Conversion rates between stages reveal where prospects drop out.",
                "These indicators are only worth something if data entry stays light: a CRM that requires "
                "double entry will be bypassed. Hence the value of a tool where the to-do list, the "
                "synchronised calendar, meeting notes and the pipeline share the same data: activity is "
                "measured in the course of daily work, with no extra effort.",
            ],
            [
                "Define pipeline stages that match your real sales process.",
                "Choose a small number of indicators shared by management and advisers.",
                "Link calendar, tasks and opportunities to limit data entry.",
                "Make dashboards a basis for team meetings rather than a control tool.",
            ],
        ),
        _trend(
            "Trend 5: security becomes a selling point",
            "Two-factor authentication, intrusion detection and encrypted messaging: trust is also "
            "demonstrated in the tools.",
            [
                "Wealth data is among the most sensitive there is: amount of assets, family composition, "
                "plans to sell a business, tax situation. Clients pay attention to how it is protected, and "
                "phishing and identity theft attempts do not spare wealthy clients. A secure, clearly "
                "identified channel is also a protection: a client used to receiving documents in their "
                "space will be wary of an e-mail asking for an urgent transfer.",
            ],
            [
                "For the firm, security is demonstrated in the tools: two-factor authentication at every "
                "login, detection of abnormal access attempts, encrypted exchanges, role-based access "
                "rights, logging of sensitive actions.",
                "Where data is hosted, the contractual framework with providers under the GDPR and the "
                "ability to answer risk departments' security questionnaires now weigh in the choice of a "
                "solution. For financial entities subject to the EU Digital Operational Resilience Act "
                "(DORA), the use of ICT service providers is also regulated.",
            ],
            [
                "Require two-factor authentication for all users, clients and advisers alike.",
                "Make the portal the channel for sending sensitive documents, and tell clients so.",
                "Involve the chief information security officer from the choice of solution onwards.",
                "Check the provider's hosting location, contractual commitments and incident management "
                "procedures.",
            ],
        ),
        _trend(
            "Trend 6: ecosystems open up",
            "Aggregation of external accounts, calendar synchronisation and specialised partners: the "
            "platform connects services rather than rebuilding everything.",
            [
                "A client's wealth is rarely held in a single institution: accounts in several banks, life "
                "insurance contracts, real estate, unlisted holdings. Clients value the adviser who helps "
                "them see the whole picture, without asking them to re-enter what they hold elsewhere.",
            ],
            [
                "No platform does everything. The trend is towards assembly: a common core, the client "
                "portal and the CRM, connected to specialised services. Aggregation of external accounts, "
                "provided by a partner with the client's consent, completes the view of wealth. Two-way "
                "synchronisation with Google Calendar and Outlook avoids entering meetings twice. Partners "
                "provide electronic signature, anti-money laundering screening or portfolio optimisation.",
                "The value of the platform then lies in the quality of its integrations and the consistency "
                "of the experience, more than in the breadth of its own scope.",
            ],
            [
                "List existing tools and the data they exchange, or should exchange.",
                "Distinguish what belongs in the common core from what can be entrusted to a specialised "
                "partner.",
                "Check, for each partner, the contractual framework and the allocation of responsibilities, "
                "in particular under the GDPR.",
                "Favour a modular platform, which lets you add building blocks without changing tools.",
            ],
        ),
        _section(
            "Conclusion: choices to make today",
            _p(
                "These six trends form a single movement: the private wealth relationship is still founded "
                "on trust and advice, but it is now also lived online, relies on structured data and fits "
                "within a more demanding regulatory and security framework."
            ),
            _p(
                "Firms do not have to transform everything at once. They do, however, have every interest in "
                "making a few structuring choices today: a client space in their colours connected to the "
                "advisers' CRM, shared client data, digital onboarding designed with compliance, clearly "
                "stated security requirements, a platform open to partners."
            ),
            _box(
                "Three questions for your next executive committee",
                "What experience does a client have today between two meetings?",
                "Which client data is shared between advisers, middle office and compliance, and which is not?",
                "Which digital project would bring our clients the most visible benefit in the next twelve "
                "months?",
            ),
        ),
        _ABOUT,
    ],
}

# --------------------------------------------------------------------------- client-portal documentation

PORTAL_DOCUMENTATION = {
    "file": "client-portal-documentation.pdf",
    "display_name": f"{B} - Client portal documentation.pdf",
    "label": "Documentation",
    "title": "Client portal for private banking",
    "subtitle": (
        f"The white-label {B} portal: client journey, reporting, documents, targeted content, "
        "messaging, security and branding"
    ),
    "sections": [
        _section(
            "The portal at a glance",
            _lead(
                f"The {B} client portal gives your clients a secure space, in your colours, to follow their "
                "wealth, find their documents and talk to their adviser, on desktop as on mobile."
            ),
            _p(
                "This document presents the portal as your clients discover it and as your advisers use it. "
                "It is intended for private banking management, digital and innovation departments and "
                "chief information security officers, as well as for asset management firms and family "
                "offices that wish to evaluate it and prepare its roll-out."
            ),
            _h("The principles of the portal"),
            _ul(
                (
                    "White label",
                    "clients log in to your firm's space, in your colours, not to a third-party tool.",
                ),
                (
                    "One tool for client and adviser",
                    f"in the Interact and Complete offers, the portal and the {B} CRM share the same data: "
                    "what the client looks at or sends appears in their record, what the adviser publishes "
                    "appears in the client's space.",
                ),
                (
                    "Secure by default",
                    "two-factor authentication, intrusion detection and encrypted exchanges apply to every user.",
                ),
                (
                    "Every screen",
                    "the portal adapts to desktop, tablet and mobile; a mobile app in your colours is "
                    "available as an option.",
                ),
            ),
        ),
        _section(
            "Your clients' journey",
            _lead(
                "From the first login to the daily monitoring of their wealth, the journey is designed to be "
                "simple, without compromising on security."
            ),
            _h("1. The invitation"),
            _p(
                "The adviser or the middle office opens access from the client record. The client receives "
                "an invitation e-mail on your firm's letterhead, which guides them through creating their "
                "password."
            ),
            _h("2. The first login"),
            _p(
                "The client chooses a password, then registers their second authentication factor. They read "
                "the portal's terms of use, whose content you define, and discover their dashboard."
            ),
            _h("3. The dashboard"),
            _p(
                "The home page sums up the essentials: overall valuation and recent change, latest documents "
                "uploaded, unread messages, upcoming meetings and content selected for them by their adviser."
            ),
            _h("4. Day-to-day monitoring"),
            _p(
                "The client looks at their reporting, downloads their documents, reads published analyses "
                "and writes to their adviser. They are notified by e-mail when a new document or message is "
                "waiting; that e-mail contains no information about their wealth, only an invitation to log in."
            ),
            _p(
                "The client can also answer their adviser's requests from their space, for example during "
                "the periodic update of their know-your-client information in the Complete offer."
            ),
        ),
        _section(
            "Digital portfolio reporting",
            _lead(
                "Your clients follow their portfolios online, without waiting for the quarterly statement, "
                "with a presentation that matches your firm's standards."
            ),
            _h("What the client sees"),
            _ul(
                (
                    "Valuation",
                    "the value of each portfolio and of consolidated wealth, with the date of the latest data "
                    "received.",
                ),
                (
                    "Performance",
                    "the change over the usual periods (year to date, twelve months, since inception), as a "
                    "percentage and as an amount.",
                ),
                (
                    "Allocation",
                    "the breakdown by asset class, currency and region, compared where relevant with the "
                    "mandate's target allocation.",
                ),
                (
                    "Positions and transactions",
                    "the detail of holdings and the history of transactions: purchases, sales, deposits, "
                    "withdrawals, coupons and fees.",
                ),
            ),
            _h("Where the data comes from"),
            _p(
                "Reporting is fed by data from your account-keeping systems or your custodians, through file "
                "exchange or an interface depending on your architecture. Updates follow the frequency of "
                "your data feeds, and the valuation date is always shown: no client mistakes yesterday's "
                "value for a real-time value."
            ),
            _p(
                "Assets held with other institutions can be added to this view through the external account "
                "aggregation option, presented below."
            ),
            _h("Periodic reports"),
            _p(
                "The statements and reports you produce (quarterly statements, annual reports, discretionary "
                "management reports) are uploaded to the client's document space, and the client is notified "
                "that they are available. With the CRM's portfolio reporting and client report generation "
                "option, advisers produce reports themselves from the same data."
            ),
        ),
        _section(
            "Document sharing",
            _lead(
                "Statements, reports, contracts and supporting documents are uploaded and filed in a document "
                "space shared by the client and their adviser."
            ),
            _ul(
                (
                    "Clear filing",
                    "documents are filed in the categories you define: statements and reports, contracts and "
                    "agreements, tax documents, supporting documents, correspondence.",
                ),
                (
                    "Both ways",
                    "the adviser uploads a document for the client; the client sends a supporting document "
                    "or a signed document from their space, without using e-mail.",
                ),
                (
                    "Notifications",
                    "the client is notified when a new document is uploaded; the adviser is notified when a "
                    "document arrives, and it also appears in their to-do list.",
                ),
                (
                    "A trace of every action",
                    "uploads, views and downloads are time-stamped and visible in the history of the client "
                    "record.",
                ),
            ),
            _p(
                "Retention periods are set according to your archiving policy and your regulatory "
                "obligations. The portal makes documents available to your clients; it does not replace "
                "your evidential archiving system where one is required."
            ),
        ),
        _section(
            "Targeted content and the relevance score",
            _lead(
                "Publish market analyses, newsletters and offers: a relevance score matches each piece of "
                "content with the clients whose profile and plans suit it best."
            ),
            _h("Publishing content"),
            _p(
                "Content is written in the portal or attached as a document, then described by criteria: "
                "themes (markets, wealth transfer, real estate, retirement, tax, responsible investment...), "
                "risk profiles, client segments and plans concerned. It can be submitted to compliance for "
                "approval before it is published."
            ),
            _h("Calculating the score"),
            _p(
                "For each client, the relevance score expresses, on a scale of 0 to 100, how closely the "
                "content's criteria match the information in the client record: risk profile, segment, "
                "stated objectives and plans, interests, content already read. The calculation relies on "
                "explicit, configurable rules: you always know why a piece of content is suggested to a client."
            ),
            _h("Distributing and following up"),
            _ul(
                "The adviser sees the clients with the highest score and chooses those to whom the content "
                "should be highlighted.",
                "The client finds the content selected for them on their dashboard.",
                "When a client reads a piece of content, the CRM raises an alert in the \"articles and "
                "content\" category: that is the moment to discuss it with the client.",
            ),
            _p(
                "Marketing communications must remain clear, fair and not misleading; the approval workflow "
                "lets your compliance team make sure of this before distribution. When an exchange leads to "
                "a personal recommendation, it follows your usual advisory process."
            ),
        ),
        _section(
            "Secure messaging and meetings",
            _lead(
                "The portal becomes the natural channel between your clients and their adviser, in place of "
                "scattered e-mails."
            ),
            _ul(
                (
                    "Protected conversations",
                    "the client writes to their adviser from their space; messages and attachments stay in "
                    "the portal, away from personal mailboxes.",
                ),
                (
                    "A history linked to the client",
                    "every exchange is kept, time-stamped and visible in the client record; when the adviser "
                    "is away, an authorised colleague picks up the thread without losing information.",
                ),
                (
                    "Meeting proposals",
                    "from the conversation, the adviser offers several slots taken from their calendar; the "
                    "client chooses the one that suits them, with no back-and-forth.",
                ),
                (
                    "An up-to-date calendar",
                    "the confirmed meeting goes into the adviser's calendar, synchronised both ways with "
                    "Google Calendar or Outlook.",
                ),
            ),
            _p(
                "The rules for using the messaging remain yours: for example, you can remind clients that it "
                "is not to be used for sending orders where your procedures require it."
            ),
        ),
        _section(
            "Security",
            _lead(
                "Wealth data calls for uncompromising protection, without making your clients' lives harder."
            ),
            _h("Two-factor authentication"),
            _p(
                "Every login is confirmed by a second factor in addition to the password: a stolen password "
                "is not enough to access a client's account. The same requirement applies to advisers and to "
                "the firm's teams."
            ),
            _h("Intrusion detection"),
            _p(
                "Abnormal access attempts (repeated failed logins, logins from an unusual device or place) "
                "are detected and reported. Depending on their severity, the account is temporarily locked "
                "and the firm is alerted, so it can react before an attempt becomes an incident."
            ),
            _h("Data protection"),
            _ul(
                "Encrypted exchanges between the browser or app and the platform, data encrypted at rest.",
                "Hosting with a cloud provider in Luxembourg, within the European Union.",
                "Role-based access rights: a client sees only their own data; an adviser sees only the "
                "clients the firm assigns to them.",
                "Logging of logins and sensitive actions, available to the firm's administrators.",
                "Automatic expiry of inactive sessions.",
            ),
            _p(
                "Under the GDPR, your firm remains the controller of its clients' data; "
                f"{LEGAL_NAME} acts as a processor, under a contract that complies with Article 28 of the "
                "regulation. Detailed security documentation is provided to your teams on request, while "
                "your project is being assessed."
            ),
        ),
        _section(
            "Branding, options and roll-out",
            _h("In your colours"),
            _ul(
                "Your firm's logo, colours and typography.",
                "Invitation and notification e-mails on your letterhead.",
                "Terms of use and notices specific to your firm.",
                "Document categories and content criteria adapted to your offering.",
            ),
            _h("The options"),
            _ul(
                (
                    "Mobile app",
                    "an app in your colours, offering the essential functions of the portal.",
                ),
                (
                    "External account aggregation",
                    "with the client's consent, the accounts they hold with other institutions are "
                    "aggregated by a specialised partner and included in their consolidated view.",
                ),
            ),
            _h("Which offers include it"),
            _ul(
                ("Engage", "the premium white-label client portal;"),
                (
                    "Interact",
                    "the portal and the adviser's CRM together: every exchange on the client side enriches "
                    "the 360° record;",
                ),
                ("Complete", "Interact plus KYC onboarding and compliance controls."),
            ),
            _h("Roll-out"),
            _ul(
                (
                    "Scoping",
                    "scope, data sources, roles and access rules, with your business, digital and security teams.",
                ),
                ("Configuration", "brand guidelines, document categories, content criteria, e-mail templates."),
                ("Data migration", "import of existing clients, portfolios and documents."),
                ("Acceptance and pilot", "approval by your teams, then opening to a first group of clients."),
                ("General roll-out", "gradual invitation of all clients, with our teams at your side."),
            ),
        ),
        _section(
            "Frequently asked questions",
            _h("Do your clients need to install anything?"),
            _p(
                "No: the portal opens in a recent browser, on desktop, tablet or mobile. Only the second "
                "authentication factor may require a phone or an app, depending on the method agreed with you."
            ),
            _h("Can a client send orders through the portal?"),
            _p(
                "The portal is designed for information, document sharing and exchanges with the adviser. "
                "The ways orders are transmitted remain those set out in your procedures and in your "
                "agreements with your clients."
            ),
            _h("Can the portal be opened gradually?"),
            _p(
                "Yes: invitations are sent client by client or by group, so you can start with a pilot "
                "before extending access to all clients."
            ),
            _h("What happens if a client loses their second factor?"),
            _p(
                "Resetting follows an identity verification procedure agreed with you; it cannot be obtained "
                "by a simple e-mail."
            ),
            _p(
                "To discover the portal as your clients will see it, book a thirty-minute demonstration with "
                "a consultant, or start a free 30-day trial on demonstration data."
            ),
        ),
    ],
}

# --------------------------------------------------------------------------- KYC documentation

KYC_DOCUMENTATION = {
    "file": "kyc-documentation.pdf",
    "display_name": f"{B} - KYC documentation.pdf",
    "label": "Documentation",
    "title": "KYC and digital client onboarding",
    "subtitle": f"The {B} compliance module, from the document checklist to client profile updates",
    "sections": [
        _section(
            "The compliance module at a glance",
            _lead(
                f"The {B} compliance module digitalises know-your-client, from onboarding to profile "
                "updates: document collection, KYC questionnaires, controls and follow-up of anomalies, in a "
                "journey traced from end to end."
            ),
            _p(
                "This document is intended for compliance departments and compliance officers, middle and "
                "back office managers, private bankers and wealth advisers, as well as heads of family "
                "offices and asset management firms."
            ),
            _h("The regulatory framework"),
            _p(
                "Onboarding and the ongoing relationship are governed by several bodies of rules, which the "
                "module helps to apply without taking their place:"
            ),
            _ul(
                (
                    "AML/CFT",
                    "due diligence obligations under the French Monetary and Financial Code (articles L.561-1 "
                    "et seq.): identifying the client and, where applicable, their beneficial owner, "
                    "verifying their identity, information on the purpose and nature of the business "
                    "relationship, ongoing monitoring adapted to the level of risk, compliance with asset "
                    "freezing measures.",
                ),
                (
                    "MiFID II",
                    "suitability assessment for investment advice and portfolio management (knowledge and "
                    "experience, financial situation including the ability to bear losses, investment "
                    "objectives including risk tolerance, sustainability preferences), and appropriateness "
                    "assessment, based on knowledge and experience, for other services.",
                ),
                (
                    "IDD",
                    "for insurance distribution, collection of the client's demands and needs and, for "
                    "insurance-based investment products, assessment of suitability or appropriateness.",
                ),
                (
                    "GDPR",
                    "limiting the data collected to what is necessary, informing the people concerned, "
                    "defined retention periods.",
                ),
            ),
            _p(
                "Decisions remain your firm's: accepting a client, classifying their level of risk, enhanced "
                "due diligence measures, reporting to Tracfin (the French financial intelligence unit) where "
                "required. The module provides the collection, controls and traceability that inform and "
                "document those decisions."
            ),
        ),
        _section(
            "Document checklists",
            _lead(
                "Define the documents expected for each type of client; the checklist is e-mailed to the "
                "client, who uploads their supporting documents online."
            ),
            _h("One checklist per type of client"),
            _p(
                "Each checklist is a template that your compliance team defines and updates without any "
                "development. The template sets out the documents expected, whether they are mandatory or "
                "conditional, how long they remain valid and the checks to apply. For example, depending on "
                "your policy:"
            ),
            _ul(
                (
                    "Individual",
                    "valid identity document, recent proof of address, evidence of income and assets, "
                    "evidence of the source of funds above a threshold you set.",
                ),
                (
                    "Legal entity",
                    "recent certificate of incorporation, up-to-date articles of association, identification "
                    "of beneficial owners, identity document of the legal representative, latest annual "
                    "accounts.",
                ),
                (
                    "Joint ownership or joint account",
                    "the documents of each joint holder and, where applicable, the deed or agreement that "
                    "governs the holding.",
                ),
                ("Non-resident client", "additional documents relating to their residence and tax situation."),
            ),
            _h("Sending to the client"),
            _p(
                "The adviser chooses the right template from the client record. The client receives an "
                "e-mail on your firm's letterhead, with a link to their secure space, where they upload "
                "their documents from their computer or phone."
            ),
            _h("Document-by-document follow-up"),
            _ul(
                (
                    "Status",
                    "each document is expected, received, approved or rejected; the reason for a rejection "
                    "is given to the client.",
                ),
                (
                    "Expiry dates",
                    "validity dates are recorded: an identity document about to expire triggers a compliance "
                    "alert before it does.",
                ),
                (
                    "Reminders",
                    "automatic reminders can be configured (frequency, number, message) and stop as soon as "
                    "the file is complete.",
                ),
                ("Progress", "the adviser and compliance see at a glance where each file stands."),
            ),
        ),
        _section(
            "Customisable KYC questionnaires",
            _lead(
                "Adapt the questions, expected answers and their sequence to your know-your-client policy "
                "and your client segments."
            ),
            _h("The headings"),
            _p("A questionnaire is made of headings that you switch on, order and complete as you need:"),
            _ul(
                "Identity, family situation and matrimonial regime",
                "Professional situation and sources of income",
                "Assets: composition, estimated amount, expenses and debt",
                "Source of the funds entrusted and source of wealth",
                "Investment objectives, investment horizon and liquidity needs",
                "Knowledge and experience of financial instruments",
                "Ability to bear losses and risk tolerance",
                "Sustainability preferences",
                "Insurance demands and needs",
                "Politically exposed person status, for the client and their close associates",
            ),
            _h("The mechanisms"),
            _ul(
                ("Question types", "single or multiple choice, amounts, dates, free text, attachment."),
                (
                    "Conditional questions",
                    "an answer shows or hides the following questions: a client who states they run a "
                    "business sees the questions about their company.",
                ),
                (
                    "Profile calculation",
                    "weighted answers produce an investor profile according to your firm's scoring grid; any "
                    "exception decided by the adviser is justified and recorded.",
                ),
                (
                    "Versions",
                    "every change to a questionnaire creates a new version; a client's answers stay linked "
                    "to the version they answered.",
                ),
                (
                    "Archiving",
                    "the completed questionnaire is kept in the client's file, with its date and how it was "
                    "validated.",
                ),
            ),
            _p(
                "The questionnaire can be completed by the client on their own from their space, or with "
                "their adviser during a meeting. The content of the questions and the profile grid are a "
                "matter for your policy: our teams help you configure them, your compliance team approves them."
            ),
        ),
        _section(
            "Compliance controls and handling anomalies",
            _lead(
                "Your compliance teams check at a glance that each file is complete and consistent; every "
                "anomaly is raised as an alert to the right person."
            ),
            _h("Automatic controls"),
            _ul(
                ("Completeness", "missing document, unanswered question, signature expected."),
                (
                    "Validity",
                    "document expired or about to expire, questionnaire past its renewal date.",
                ),
                (
                    "Consistency",
                    "answers that contradict one another or the documents provided: for example an amount "
                    "invested out of proportion with the declared assets, or declared experience "
                    "incompatible with the knowledge stated.",
                ),
                (
                    "Risk indicators",
                    "answers that call for particular vigilance under your rules: politically exposed "
                    "person, high-risk country, complex holding structure.",
                ),
            ),
            _h("The approval workflow"),
            _p(
                "Each file follows the workflow you define, for example a first review by the middle office "
                "and then approval by compliance for high-risk files. The four-eyes principle can be "
                "enforced: the person who put a file together cannot approve it alone."
            ),
            _h("Handling anomalies"),
            _ul(
                "Each anomaly is flagged in the file and assigned to an owner: the adviser for a document to "
                "obtain, compliance for a point to analyse.",
                "It appears in the to-do list of the person concerned and among the CRM's compliance alerts.",
                "Its resolution is documented: document obtained, explanation gathered or reasoned and "
                "approved exception.",
                "A dashboard lists files in progress, open anomalies and how long they have been open.",
            ),
            _p(
                "Every action is time-stamped and attributed to its author. In an internal or external "
                "inspection, the full history of a file can be viewed and exported."
            ),
        ),
        _section(
            "Periodic profile updates",
            _lead(
                "Invite clients whose profile is due for renewal to confirm or update their information; "
                "the version history is kept."
            ),
            _p(
                "Know-your-client information must be kept up to date throughout the relationship. The "
                "module schedules these updates according to your policy, for example more frequently the "
                "higher the client's level of risk."
            ),
            _ul(
                (
                    "Scheduled campaigns",
                    "the clients concerned are identified automatically and invited, by e-mail and in their "
                    "space, to review their information.",
                ),
                (
                    "Confirmation or update",
                    "the client confirms unchanged information and updates the rest; only the documents "
                    "that need renewing are requested.",
                ),
                (
                    "Event-driven updates",
                    "a change of situation reported by the client or noticed by the adviser (marriage, sale "
                    "of a business, change of residence) triggers a targeted review.",
                ),
                (
                    "History",
                    "every version of the profile is kept; the adviser compares two versions and sees what "
                    "has changed.",
                ),
                (
                    "Monitoring",
                    "a dashboard separates profiles that are up to date, under review and overdue, by "
                    "adviser and by level of risk.",
                ),
            ),
        ),
        _section(
            "Options offered with our partners",
            _h("Electronic signature"),
            _p(
                "Through the integration of partner trust service providers, account-opening agreements, "
                "management mandates, engagement letters, suitability statements and other regulatory "
                "documents are signed remotely. The level of signature (simple, advanced or qualified under "
                "the EU eIDAS regulation) is chosen with you according to the nature of the documents and "
                "your risk analysis. The signed document and its evidence file are kept in the client's file."
            ),
            _h("Automated anti-money laundering screening"),
            _p(
                "Screening of your clients and, where applicable, their beneficial owners against sanctions "
                "and asset-freeze lists and against databases of politically exposed persons is automated "
                "with our specialised partners:"
            ),
            _ul(
                "at onboarding, before the file is approved;",
                "over time, when the lists change or the client's information changes;",
                "each potential match is presented to your compliance team, which analyses and qualifies it "
                "(false positive or confirmed match); the decision and its justification are recorded.",
            ),
            _p(
                "Automated screening helps to detect; it does not replace the analysis of your teams, who "
                "alone decide what action to take."
            ),
            _h("Three views of the same file"),
            _p("The module gives each party the view they need, on a single file:"),
            _ul(
                (
                    "The client",
                    "their checklist with the documents expected and their status, the questionnaires to "
                    "complete, the documents to sign, and a clear explanation when a document is rejected.",
                ),
                (
                    "The adviser",
                    "the progress of each file in the 360° client record, the reminders to send in their "
                    "to-do list, the compliance alerts that concern them.",
                ),
                (
                    "The compliance team",
                    "the queue of files to approve, open anomalies, screening matches to analyse, overdue "
                    "profiles and the full history of each file.",
                ),
            ),
        ),
        _section(
            "The module in our offers and its roll-out",
            _p(
                "The compliance module is part of the Complete offer, which brings together the client "
                "portal (Engage), the adviser's CRM (Manage) and KYC onboarding. Complete is priced on "
                "quotation, according to your numbers of users and clients and the options chosen: external "
                "account aggregation, portfolio optimisation, KYC-LAB automated controls, as well as "
                "electronic signature and anti-money laundering screening with our partners."
            ),
            _h("Roll-out steps"),
            _ul(
                (
                    "Scoping with your compliance team",
                    "client types, documents expected, profile grid, control rules and approval workflow.",
                ),
                ("Configuration", "checklists, questionnaires, reminders and e-mail templates on your letterhead."),
                (
                    "Migration of existing data",
                    "import of clients and their documents with their validity dates, to launch the first "
                    "update campaigns.",
                ),
                ("Acceptance testing", "your teams run through typical onboardings and approve the controls."),
                (
                    "Go-live",
                    "training for advisers, middle office and compliance, then gradual opening.",
                ),
            ),
        ),
        _section(
            "Frequently asked questions",
            _h("Can we reuse our current questionnaires and checklists?"),
            _p(
                "Yes. Configuration starts from your existing documents: your questions, your profile grid "
                "and your document lists are reproduced in the module, then simplified if you wish, with the "
                "agreement of your compliance team."
            ),
            _h("Does the module replace our screening tool or our signature provider?"),
            _p(
                "No. Anti-money laundering screening and electronic signature are options provided with "
                "specialised partners. If you already work with a provider, whether to integrate it is "
                "assessed during scoping."
            ),
            _h("Where are clients' documents and answers kept?"),
            _p(
                "In the client's file, on a platform hosted in Luxembourg, within the European Union. "
                "Retention periods are set according to your obligations, for example five years from the "
                "end of the business relationship for documents falling under AML/CFT rules."
            ),
            _h("Is the module suitable for an independent advisory firm?"),
            _p(
                "Yes: checklists and questionnaires adapt to the size of the firm. An independent wealth "
                "advisory firm can keep to a simple configuration, while a private bank can set up "
                "multi-level approval workflows."
            ),
            _p(
                "To see an onboarding from end to end, from the checklist to the controls, book a "
                "thirty-minute demonstration with a consultant."
            ),
        ),
    ],
}

# --------------------------------------------------------------------------- digital subscription journey

SUBSCRIPTION_DOCUMENTATION = {
    "file": "digital-subscription-journey.pdf",
    "display_name": f"{B} - Digital subscription journey.pdf",
    "label": "Documentation",
    "title": "The digital subscription journey",
    "subtitle": (
        "Subscribing to financial products step by step, as experienced by the investor, the adviser "
        "and the compliance team"
    ),
    "sections": [
        _section(
            "Digital subscription at a glance",
            _lead(
                f"{B} supports distributors of financial products: online KYC questionnaire, paperless "
                "subscription journey and compliance monitoring, from the proposal to the approval of the file."
            ),
            _p(
                "A subscription involves three parties: the investor, who must understand what they are "
                "subscribing to and provide the information requested; the adviser, who recommends and "
                "assists; the compliance team, which makes sure the file is complete and consistent before "
                "it is passed on. On paper, every back-and-forth costs days. This document describes the "
                "digital journey as each of them experiences it."
            ),
            _h("For which distributors and which products"),
            _p(
                "The solution is designed for independent wealth advisers, banks, private banks and asset "
                "management firms, including those that distribute their funds through partners. It adapts "
                "to your network and your products: units of collective investment schemes, real estate "
                "investment funds (SCPI) or private equity funds, life insurance or capitalisation "
                "contracts, structured products."
            ),
            _h("Six building blocks"),
            _ul(
                ("Online KYC questionnaire", "know-your-client and the investor profile, adapted to the product;"),
                ("Digital subscription journey", "from choosing the product to signing, paperless;"),
                ("Compliance monitoring workflow", "a defined approval workflow, with a status at every step;"),
                ("Incompleteness and inconsistency alerts", "anomalies spotted before the file is passed on;"),
                ("Sales dashboards", "new money and files in progress, by network, product and adviser;"),
                ("Distributor portal", "a space dedicated to your partner distributors."),
            ),
        ),
        _section(
            "The online KYC questionnaire and the investor profile",
            _lead(
                "Investors complete their know-your-client information and profile online, with questions "
                "adapted to the product they subscribe to."
            ),
            _p(
                "The questionnaire gathers the information needed for know-your-client under AML/CFT rules, "
                "for the suitability or appropriateness assessment under MiFID II and, for insurance "
                "contracts, for the collection of demands and needs under the IDD. The questions adapt to "
                "the product: subscribing to units of an illiquid private equity fund, for example, calls "
                "for in-depth questions on the investment horizon, liquidity needs and the share of assets "
                "invested."
            ),
            _h("The investor profile"),
            _ul(
                (
                    "Calculated",
                    "the answers produce a profile according to your firm's grid: knowledge and experience, "
                    "ability to bear losses, risk tolerance, objectives and investment horizon.",
                ),
                (
                    "Reused",
                    "an investor already known does not re-enter their information: they confirm what has "
                    "not changed and complete what is missing.",
                ),
                (
                    "Dated",
                    "the profile carries its validity date; an expired profile must be updated before any "
                    "new subscription.",
                ),
                (
                    "Complete",
                    "sustainability preferences are collected and matched with the characteristics of the "
                    "products offered.",
                ),
            ),
            _p(
                "The questionnaire is completed independently from the investor's space or with the adviser "
                "in a meeting. The questions and the profile grid are those your compliance team has approved."
            ),
        ),
        _section(
            "The steps of the subscription journey",
            _lead(
                "From choosing the product to signing, a guided journey on desktop, tablet or mobile, with "
                "no printing or posting."
            ),
            _p(
                "The journey has four steps. It can be started by the adviser in a meeting and continued by "
                "the investor from home, or the other way round: progress is saved at every step."
            ),
            _h("Step 1: the profile"),
            _p(
                "The investor completes or updates their KYC questionnaire and provides the documents "
                "requested: identity document, proof of address and, depending on the thresholds you set, "
                "evidence of the source of funds."
            ),
            _h("Step 2: the product and the amount"),
            _p(
                "The adviser selects the product from your catalogue and enters the amount, the payment "
                "method and, where applicable, the allocation between investment options. The journey checks "
                "that the choice is consistent with the profile: a product whose risk level exceeds the "
                "stated tolerance, or an amount out of proportion with the declared assets, triggers an "
                "alert before going further."
            ),
            _h("Step 3: the documents"),
            _p(
                "The investor receives the product's regulatory documents (key information document, "
                "prospectus, notice or articles depending on the product) and, when advised, the "
                "suitability statement explaining how the recommendation matches their situation. The "
                "subscription form is pre-filled from the information already entered: no re-keying, fewer "
                "errors. The delivery of each document is time-stamped."
            ),
            _h("Step 4: the signature"),
            _p(
                "The investor signs the subscription form and the related documents electronically, through "
                "the integration of our electronic signature partners. The complete file, signed and "
                "time-stamped, then goes to compliance review."
            ),
            _p(
                "Payment of the funds and registration of the subscription with the asset manager, the "
                "custodian or the insurer follow the channels specific to each product; the approved file is "
                "passed on to them in the form you define."
            ),
        ),
        _section(
            "The compliance monitoring workflow",
            _lead(
                "Each file follows a defined approval workflow, from the adviser to compliance, with a "
                "status visible at every step."
            ),
            _h("The statuses of a file"),
            _ul(
                ("In progress", "the journey has started; the investor or the adviser is completing it."),
                ("Submitted", "the file is signed and sent to compliance."),
                (
                    "To be completed",
                    "compliance has found something missing or inconsistent; the adviser is notified, with "
                    "the reason.",
                ),
                ("Approved", "the file is compliant and ready to be passed on."),
                ("Passed on", "the file has been sent to the asset manager, the custodian or the insurer."),
            ),
            _p(
                "The workflow is configured to your rules: one- or two-level approval depending on the "
                "amount, the product or the investor's profile, delegation during absences, target "
                "processing times. Every decision is time-stamped and attributed to its author, and the file "
                "keeps the full history of exchanges between the adviser and compliance."
            ),
        ),
        _section(
            "Incompleteness and inconsistency alerts",
            _lead(
                "Missing document, contradictory answer or amount outside the profile: the file is flagged "
                "before it is passed on, not after."
            ),
            _h("Incompleteness"),
            _ul(
                "Supporting document missing, illegible or expired",
                "Mandatory question left unanswered",
                "Signature missing on a document in the file",
                "Regulatory document not provided to the investor",
            ),
            _h("Inconsistency"),
            _ul(
                "Amount subscribed out of proportion with the declared assets or income",
                "Product whose risk level exceeds the stated tolerance, or whose recommended holding period "
                "is longer than the investor's horizon",
                "Complex product offered to an investor who states they do not understand how it works",
                "Contradictory answers between the questionnaire and the documents provided, for example on "
                "the address or the professional situation",
            ),
            _p(
                "Alert rules are configured with your compliance team. A blocking alert prevents the file "
                "from being submitted; an information alert asks the adviser for a justification, which is "
                "kept in the file. Alerts point out situations to examine: the decision remains your teams'."
            ),
        ),
        _section(
            "Sales dashboards and the distributor portal",
            _h("The dashboards"),
            _p(
                "Follow subscriptions in progress, amounts raised and pending files, by network, by product "
                "and by adviser:"
            ),
            _ul(
                "new money raised and in progress, by period, product and network;",
                "pending files and how long they have been waiting, by status;",
                "share of files complete at first submission, to spot training needs;",
                "lead times between the start of the journey, the signature and approval.",
            ),
            _h("The distributor portal"),
            _p("Your partner distributors have a dedicated space, in your colours, to:"),
            _ul(
                "start a subscription for an investor and follow its progress;",
                "check the status of their files and answer compliance's requests;",
                "access up-to-date product documentation: key information documents, prospectuses, approved "
                "marketing materials;",
                "follow their own activity in a dashboard limited to their scope.",
            ),
            _p(
                "Each distributor sees only their own investors and files; your teams keep the overall view "
                "of the network."
            ),
            _h("Going further"),
            _p(
                "To run through a journey from end to end, from the KYC questionnaire to the approval of the "
                "file, book a thirty-minute demonstration with a consultant."
            ),
        ),
    ],
}

DOCUMENTS_EN: dict[str, dict] = {
    "ebook": EBOOK,
    "white_paper": WHITE_PAPER,
    "portal_documentation": PORTAL_DOCUMENTATION,
    "kyc_documentation": KYC_DOCUMENTATION,
    "subscription_documentation": SUBSCRIPTION_DOCUMENTATION,
}
