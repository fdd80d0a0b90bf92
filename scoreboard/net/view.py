"""What the web pages say about a table's state, in the display's language: the texts are
made here, from the display's own gettext catalogs, so the browser only places them."""

from scoreboard.texts.i18n import LANGUAGES, translator
from scoreboard.texts.messages import HINTS, KINDS, MESSAGES, NOT_SAVED, TO_DO, WHAT_IS_WRONG
from scoreboard.texts.words import Timings, Words

# The pages' own words (in the catalogs with the display's, scoreboard/texts/locale/).
PAGE_WORDS = {
    "title": "Live score",
    "at_table": "At the table",
    "lost": "Connection lost",
    "offline": "Table not connected",
    "history": "Match history",
    "csv": "Download CSV",
    "json": "Download JSON",
    "no_matches": "No matches yet",
    "started": "Started",
    "players": "Players",
    "frames": "Frames",
    "scores": "Frame scores",
    "unfinished": "unfinished",
    "control": "Control this table from this phone",
}


def words(lang: str) -> Words:
    return Words(translator(lang if lang in LANGUAGES else LANGUAGES[0]), Timings())


def page_words(lang: str) -> dict[str, str]:
    t = words(lang)
    return {key: t.gettext(text) for key, text in PAGE_WORDS.items()}


def view(message: dict) -> dict:
    """A bridge state message ({"state", "faults", "hint", "lang"}) as the page's texts."""
    s, lang = message["state"], message.get("lang", LANGUAGES[0])
    t = words(lang)
    names = s["players"]
    return {
        "lang": lang,
        "names": names,
        "score": s["score"],
        "frames": s["frames"],
        "race": t.ngettext("race to {n} frame", "race to {n} frames", s["race"]).format(
            n=s["race"]
        ),
        "race_n": s["race"],
        "frame": t.gettext("frame {n}").format(n=s["frame"]),
        "striker": s["striker"],
        "headline": headline(s, t),
        "foul": foul_lines(s, t),
        "faults": [fault_text(f, t) for f in message.get("faults", ())],
        "hint": hint_text(message.get("hint"), t),
        "words": page_words(lang),
    }


def headline(s: dict, t) -> str:
    """What the phase asks for, as the display says it."""
    names, phase = s["players"], s["phase"]
    if phase == "lag":
        return t.gettext("Who breaks first?")
    if phase == "break" and s["breaker"]:
        return t.gettext("{name} breaks").format(name=names[s["breaker"]])
    if phase == "match-over":
        return t.gettext("Winner: {name}").format(name=names[s["winner"]])
    if phase == "frame-over":
        return t.gettext("Frame {n} over").format(n=s["frame"])
    if phase in ("foul", "break-foul") and s.get("decider"):
        # A watcher's page says who chooses what (the table's own display: "A or B").
        if phase == "break-foul":  # GR-13.2
            text = t.gettext("{name} chooses: play on, hand the shot over, or rack again")
        else:  # GR-7.4
            text = t.gettext("{name} chooses: play on, or hand the shot to the opponent")
        return text.format(name=names[s["decider"]])
    if phase in ("foul", "break-foul"):
        return t.gettext("Choose: A or B")
    return ""


def foul_lines(s: dict, t) -> list[str]:
    """The last foul of the frame while it matters: its kinds, the penalty, what to spot."""
    foul = s.get("foul")
    if not foul:
        return []
    names = s["players"]
    kinds = ", ".join(t.gettext(KINDS.get(k, KINDS["other"])) for k in foul["kinds"])
    lines = [t.gettext("FOUL: {kinds}").format(kinds=kinds)]
    if not foul.get("lapsed"):
        if foul.get("rule") == "american":  # CV-1
            lines.append(t.gettext("−1 {name}: ball back").format(name=names[foul["offender"]]))
        else:
            lines.append(t.gettext("+1 {name}: takes ball").format(name=names[foul["penalty_to"]]))
    if spot := foul.get("to_spot"):
        lines.append(t.ngettext("Spot {n} ball", "Spot {n} balls", spot).format(n=spot))
    return lines


def fault_text(fault: dict, t) -> str:
    kind = fault.get("kind", "?")
    if kind == "not-saved":
        problem = fault.get("problem", "broken")
        what = t.gettext(WHAT_IS_WRONG.get(problem, WHAT_IS_WRONG["broken"]))
        todo = t.gettext(TO_DO.get(problem, TO_DO["broken"]))
        return f"{t.gettext(NOT_SAVED)}: {what}. {todo} ({fault.get('path', '')})"
    text = t.gettext(MESSAGES.get(kind, "Fault: {kind}"))
    return text.format(kind=kind, pocket=fault.get("pocket", "?"), count=fault.get("count", "?"))


def hint_text(hint: dict | None, t) -> str:
    if not hint:
        return ""
    key, fields = hint["key"], dict(hint.get("fields", {}))
    if "kind" in fields:
        fields["kind"] = t.gettext(KINDS.get(fields["kind"], KINDS["other"]))
    if key not in HINTS:
        return str(key)
    try:
        return t.timed(HINTS[key]).format(**fields)
    except (KeyError, IndexError):
        return t.timed(HINTS[key])
