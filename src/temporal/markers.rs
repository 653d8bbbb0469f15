//! The marker rules of the TemporalClassifier (spec context-scorer §5 "marker classes").
//!
//! Each rule is an ECMAScript regex (the `regress` crate, as `query.rs` uses) over the
//! statement lower-cased with typographic apostrophes made plain. Rules are grouped in tiers
//! tried in order; within a tier the earliest match in the text wins, ties to the rule listed
//! first. The order says which reading wins when a statement carries two markers:
//! 1. backward mutation (correction): "Actually, from now on ..." corrects first;
//! 2. strong forward markers ("from now on", "I've decided", "the rule is", "will no longer"):
//!    a statement that ends an old state and commits to a new one is a commitment;
//! 3. closed markers ("used to", "previously", "until last week", "there was"): they beat the
//!    weak forward markers, so "we always used to deploy by hand" is history;
//! 4. weak forward markers ("we will", "always", "we're using X", imperatives).
//!
//! The guards against the hard negatives (spec §5 leaves them to the implementation) are in
//! the patterns: "actually" corrects only at the head of a clause or before ", not"; "always" /
//! "never" constrain only after an agent (we, you, I, everyone), a modal, or at the head of an
//! imperative; "we're using" is a commitment only when a number does not follow ("we're using
//! 80% of the disk" is a measurement); "used to" is not "get used to".

use super::TemporalClass;
use regress::Regex;
use std::sync::OnceLock;

/// One marker rule.
struct Rule {
    class: TemporalClass,
    family: &'static str,
    regex: Regex,
}

/// A clause head: the start of the text or just after clause punctuation, with an optional
/// interjection ("oh,", "no,", "wait,", "sorry,", "hmm,").
const HEAD: &str = r"(?:^|[.;:!?\u2014\u2013(]\s*|\s-\s|,\s*(?:but|and|so)\s+)(?:(?:oh|no|nope|wait|sorry|hmm|ok|okay|um|ah|hold on|and|but|so)[,.!]?\s+)*";
/// The agents before a constraining "always" / "never".
const AGENT: &str = r"(?:we|you|i|they|everyone|everybody|nobody|the team|our team|devs|developers|reviewers|people)";

/// The tiers, in precedence order: (class, family, pattern).
fn tiers() -> Vec<Vec<(TemporalClass, &'static str, String)>> {
    use TemporalClass::*;
    let s = |p: &str| p.to_string();
    vec![
        vec![
            (Correction, "correction", format!(r"{HEAD}actually\b")),
            (Correction, "correction", s(r"\bactually\b[^.;]*,\s*not\b")),
            // Tuned on the odd-numbered half of the corpus (docs/temporal.md, "Tuning").
            // "denial": a leading "No," corrects in a conversation with an assistant, and
            // answers a question in one between friends ("No, I haven't read them yet").
            (
                Correction,
                "denial",
                s(r"^(?:no|nope|hmm,? no|no wait|wait, no)[,.!:]"),
            ),
            (
                Correction,
                "correction",
                s(
                    r"\b(?:let me correct|i (?:should|need to|have to|must) correct|correcting myself|slight correction|correction to|correct the record|let me fix what i said|fix to what i said|let me restate|walk (?:that|it) back|strike that|on second thought|to be precise|i got (?:that|it) (?:backwards|wrong)|the other way around|mixed (?:them|those|it) up|i misread|i misheard|i had the \w+ wrong|oops|whoops)\b",
                ),
            ),
            // "what I said" refers back to correct only with a word that invalidates it
            // ("what I said about X was wrong / doesn't apply"): between friends, "sounds
            // like what I said was helpful" corrects nothing (LoCoMo dev, docs/temporal.md).
            (
                Correction,
                "correction",
                s(
                    r"\b(?:what i (?:said|wrote|told you|mentioned)\b[^.]*?(?:\b(?:wrong|not|incorrect|premature|outdated|mistaken|instead|no longer|off|stale)\b|n't\b)|my (?:earlier|previous|last) (?:note|message|answer|statement|comment|reply)|i (?:previously|earlier) (?:said|told you|wrote|mentioned)|i (?:said|told you|wrote|mentioned|quoted|gave you|gave|pasted|linked) (?:earlier|before|previously)|earlier i (?:said|called|wrote|told|mentioned)|the earlier (?:claim|statement|number|figure))\b",
                ),
            ),
            (
                Correction,
                "correction",
                s(
                    r"\b(?:was|were) (?:wrong|incorrect|a typo|backwards|premature)\b(?! (?:with|about the (?:disk|server)))|\bisn't (?:true|right|correct|the case)\b|\bthat's not (?:quite )?right\b",
                ),
            ),
            (
                Correction,
                "correction",
                s(
                    r"\b(?:i was wrong|i was mistaken|we were wrong|i misspoke|i misremembered|scratch that|my mistake|my bad|i stand corrected|correction:|ignore what i said|disregard what i said|forget what i said)",
                ),
            ),
            (
                Correction,
                "correction",
                s(
                    r"\b(?:that's|that is|that was|this is|this was|it's|it was) (?:wrong|incorrect|not right|not true|not correct|a typo)\b",
                ),
            ),
            (
                Correction,
                "correction",
                s(r"\bi (?:meant|mean) [^.]*,? not\b"),
            ),
            (
                Correction,
                "correction",
                s(
                    r"\b(?:i|we) (?:said|told you|wrote|mentioned)\b[^.]*\bbut (?:it's|it is|it was|that's|that was|the|actually)\b",
                ),
            ),
            (
                Correction,
                "correction",
                s(
                    r"\bnot [^.;]{1,40}?,? (?:as i said|like i said|as i wrote|like i wrote|as i told you|as i mentioned)\b",
                ),
            ),
            (
                Correction,
                "retroactive",
                s(
                    r"\b(?:this|that|it) (?:has|had) always been\b|\b(?:that|this|it) was never(?: the case| true| right| correct)?\b|\bwas never actually\b|\b(?:has|had) never actually\b|\balways was\b",
                ),
            ),
            (
                Correction,
                "clarification",
                s(
                    r"\b(?:to clarify|let me clarify|clarification:|the correct (?:version|value|number|name|port|path|one|url|command|figure|date|answer) (?:is|was)|the right (?:value|number|port|name|one) is)\b",
                ),
            ),
        ],
        vec![
            (
                ForwardOpen,
                "future",
                s(
                    r"\b(?:from now on|going forward|moving forward|from here on|henceforth|from (?:today|this point|this sprint|this release|the next release|next week|next sprint) on(?:ward|wards)?|from now until further notice|in (?:the )?future,)\b",
                ),
            ),
            (
                ForwardOpen,
                "decision",
                s(
                    r"\b(?:i've|i have|we've|we have|i|we|the team|team has) (?:decided|agreed|committed)\b",
                ),
            ),
            (
                ForwardOpen,
                "constraint",
                s(
                    r"\bthe (?:rule|requirement|policy|convention|standard|plan|constraint|contract|invariant) (?:is|here is|going forward is)\b|\b(?:will|'ll|shall) no longer\b|\bwon't [^.]*\banymore\b",
                ),
            ),
        ],
        vec![
            (
                Closed,
                "superseded",
                s(
                    r"(?<!\b(?:get|got|getting|gets|are|is|am|'re|'m|be|been|being|was|were) )\bused to\b",
                ),
            ),
            (
                Closed,
                "superseded",
                s(
                    r"\b(?:previously|formerly|originally|no longer|not anymore|once upon a time|back in the day|in the old days|in the past)\b|\bn't [^.]*\banymore\b",
                ),
            ),
            (
                Closed,
                "superseded",
                s(
                    r"\b(?:in|on|with) (?:the |our )?(?:old|previous|legacy|earlier|former|original) (?:version|release|setup|system|design|api|schema|codebase|architecture|stack|pipeline|build|cluster|server|deploy|implementation|one)\b",
                ),
            ),
            (
                Closed,
                "superseded",
                s(
                    r"\bbefore (?:the|our) (?:refactor|refactoring|migration|rewrite|upgrade|switch|move|split|merge|redesign|reorg|outage|cutover|port|rename)\b",
                ),
            ),
            (
                Closed,
                "superseded",
                s(
                    r"\b(?:was|were|got|has been|have been|had been) (?:deprecated|retired|removed|decommissioned|sunset|sunsetted|ripped out|shut down|turned off|torn down|deleted|archived|dropped|abandoned|superseded)\b",
                ),
            ),
            (
                Closed,
                "superseded",
                s(
                    r"\b(?:we|i|they|the team) (?:dropped|retired|decommissioned|ripped out|stopped using|stopped|abandoned|moved off|migrated off|moved away from|got rid of|shut down|turned off|deleted|removed|killed|sunset)\b",
                ),
            ),
            (
                Closed,
                "bound",
                s(
                    r"\b(?:until|till|up until|up to) (?:last \w+|yesterday|recently|earlier|a (?:few|couple of) (?:days|weeks|months) ago|(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b(?! next))|\b(?:until|till|before) (?:we|they|i|you|it|the team) (?:\w+ed|rewrote|split|took|moved|switched|changed|upgraded|broke|fixed|cut|shut|ran|went|began|began)\b|\bback (?:when|then)\b|\bat the time\b|\bin (?:v|version )\d+(?:\.\d+)* (?:we|it|the)\b",
                ),
            ),
            (
                Closed,
                "past_existential",
                s(
                    r"\b(?:there (?:was|were|used to be)|(?:it|we|they|the \w+) had (?!to\b|been\b|decided\b|agreed\b)\w+)\b",
                ),
            ),
        ],
        // Broader past readings, after the specific closed markers so those name the marker.
        vec![
            (
                Closed,
                "superseded",
                s(
                    r"\b(?:the|our) old\b|\b(?:was|were) once\b|\b(?:in the early days|in the beginning|at first|for a while|for the first \w+ (?:years|months)|in the first (?:release|version|year|years)|the first (?:version|prototype|release)|our first \w+|in (?:the )?\d+\.x releases?|in v\d+|(?:\w+|\d+) years ago)\b",
                ),
            ),
            (
                Closed,
                "bound",
                s(
                    r"\b(?:was|were|had|took|ran|went|used|lived)\b[^.;]*\b(?:before|until)\b|\b(?:before|until)\b[^.;]*\b(?:was|were|had)\b",
                ),
            ),
        ],
        vec![
            (
                ForwardOpen,
                "future",
                s(
                    r"\b(?:we|i|you|they|the team)(?:'ll| will| shall| are going to|'re going to| am going to|'m going to| plan to| intend to| are planning to|'re planning to| aim to)\b|\blet's\b|\blet us\b|\bwill (?:expect|require|need|use|be|run|return|accept|reject|send|ship|stay|keep|live|move|switch|go|get|have|support|default)\b|\bnext (?:sprint|release|quarter|week|month|version|milestone)\b|\bis (?:going|scheduled|planned|set) to\b|\bscheduled for\b|\bgonna\b|\bwe(?:'re| are) (?:moving|switching|migrating|porting) to\b",
                ),
            ),
            (
                ForwardOpen,
                "decision",
                s(
                    r"\b(?:we|i|the team) (?:chose|picked|went with|settled on|standardi[sz]ed on|opted for|signed off on)\b|\bwe're going with\b|\bwe are going with\b|\bthe decision is\b|\b(?:decided|decision):",
                ),
            ),
            (
                ForwardOpen,
                "constraint",
                format!(
                    r"{HEAD}(?:please\s+)?(?:always|never|do not|don't|make sure|avoid|prefer|use|pin|stick|squash|rebase|prefix|bump|ensure)\b|\b{AGENT}\s+(?:should\s+|must\s+|will\s+|can\s+|shall\s+|have to\s+|need to\s+)?(?:always|never)\b|\b(?:must|mustn't|must not|shall not|should always|should never|is required|are required|is mandatory|are mandatory|is forbidden|are forbidden|is not allowed|are not allowed|is prohibited|are prohibited|has to be|have to be|needs to be|need to be)\b|\b(?:do not|don't) ever\b|\bmake sure (?:to|that|you|we|it)\b|\bno (?:one|body) (?:may|should|can|is allowed)\b|\bonly ever\b"
                ),
            ),
            (
                ForwardOpen,
                "constraint",
                s(
                    r"^(?:please|remember|treat|keep|write|follow)\b|\bi'd like you to\b|\bi want (?:you|all|every|the|it)\b|^(?:every|each|all|no|only) \w+|\bshould\b|\b(?:has|have) to\b|\bneeds? to\b",
                ),
            ),
            (
                ForwardOpen,
                "commitment",
                s(
                    r"\b(?:we|i)(?:'re| are|'m| am) (?:using|on|standardi[sz]ing on|sticking with|keeping|targeting|going with)\b(?! (?:\d|about|around|almost|nearly|over|under|up|too|a lot|more|less|half|most|all of|the wrong|it wrong))|\b(?:we|i) (?:use|run|deploy|ship|target|host|build|release|keep)\b|\bour (?:standard|convention|policy|default) is\b",
                ),
            ),
        ],
        // The weakest reading: "X, not Y" with no other marker replaces an earlier value.
        vec![(Correction, "contrast", s(r",\s*not\b"))],
    ]
}

/// The compiled rules, in tiers.
fn compiled() -> &'static [Vec<Rule>] {
    static RULES: OnceLock<Vec<Vec<Rule>>> = OnceLock::new();
    RULES.get_or_init(|| {
        tiers()
            .into_iter()
            .map(|tier| {
                tier.into_iter()
                    .map(|(class, family, pattern)| Rule {
                        class,
                        family,
                        // The patterns are constants of this file, checked by the unit tests.
                        regex: Regex::new(&pattern).expect("a valid marker pattern"),
                    })
                    .collect()
            })
            .collect()
    })
}

/// Lower-case, plain apostrophes, single spaces.
fn normalise(text: &str) -> String {
    let lower = text.to_lowercase().replace(['\u{2019}', '\u{2018}'], "'");
    lower.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A marker that matched: its class, family, phrase, and the tier (0-based) it belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Marker {
    pub class: TemporalClass,
    pub family: &'static str,
    pub phrase: String,
    pub tier: usize,
}

/// The first tier with a match decides; within it, the earliest match (then the rule listed
/// first).
pub(super) fn find_marker(text: &str) -> Option<Marker> {
    let text = normalise(text);
    for (tier, rules) in compiled().iter().enumerate() {
        let best = rules
            .iter()
            .filter_map(|rule| rule.regex.find(&text).map(|m| (m.range(), rule)))
            .min_by_key(|(range, _)| range.start);
        if let Some((range, rule)) = best {
            let phrase = text[range].trim_matches(|c: char| !c.is_alphanumeric() && c != '\'');
            return Some(Marker {
                class: rule.class,
                family: rule.family,
                phrase: phrase.to_string(),
                tier,
            });
        }
    }
    None
}
