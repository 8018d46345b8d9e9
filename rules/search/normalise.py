"""The one text normaliser of the rules search, used at index time and at query time.

`normalise(text, lang)` turns rulebook text (or a query) into a string of search tokens
separated by single spaces. Both search backends index exactly these tokens, so a query
normalised with the same function meets the index on equal terms:

- every language: Unicode NFKC, case folding, accents and combining marks removed,
  punctuation dropped, one-letter words dropped, a short stop-word list dropped;
  a hyphenated word gives its parts and the joined word (``port-réal`` -> ``port real
  portreal``), so "Port-Réal", "port réal" and "portreal" all match;
- French: œ/æ ligatures, elisions (l', d', qu', j', n', s', c', m', t', lorsqu', jusqu'…,
  straight or curly apostrophes) removed, Snowball French stemming;
- English: possessive 's dropped, Snowball English stemming;
- Persian: Arabic letter variants mapped to Persian ones (ي ى -> ی, ك -> ک, ة ۀ -> ه,
  أ إ آ -> ا …), harakat and tatweel removed, Persian/Arabic-Indic digits -> ASCII,
  the half-space (ZWNJ) and the spacing of the affixes می/نمی and ها/های/هایی/تر/ترین
  unified ("می‌شود" = "می شود" = "میشود"), plural endings removed (a light stemmer),
  a few frequent OCR misreadings of the Persian rulebook repaired.

Pure functions, no Django import: the module can be used from importers, tests and scripts.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import snowballstemmer

LANGS = ("en", "fr", "fa")

_ZWNJ = "\u200c"
_APOSTROPHES = str.maketrans(
    {"’": "'", "‘": "'", "ʼ": "'", "`": "'", "´": "'", "′": "'", "ʻ": "'", "＇": "'"}
)
_LATIN_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae", "ß": "ss", "ĳ": "ij"})
# Invisible characters: joiners, bidi marks and embeddings, BOM, soft hyphen.
_INVISIBLE = dict.fromkeys(
    [0x200B, 0x200D, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0xFEFF, 0x00AD]
)
_WORD = re.compile(r"[^\W_]+(?:['\-][^\W_]+)*")

_FR_ELISION = re.compile(
    r"^(?:l|d|qu|j|n|s|c|m|t|lorsqu|jusqu|presqu|puisqu|quoiqu)'(?=[^\W_])", re.IGNORECASE
)

# Persian letter variants and digits; hamza/madda carriers are folded to the bare letter.
_FA_LETTERS = str.maketrans(
    {
        "ي": "ی",
        "ى": "ی",
        "ئ": "ی",
        "ك": "ک",
        "ڪ": "ک",
        "ة": "ه",
        "ۀ": "ه",
        "ہ": "ه",
        "ە": "ه",
        "ٹ": "ت",
        "أ": "ا",
        "إ": "ا",
        "آ": "ا",
        "ٱ": "ا",
        "ؤ": "و",
        "ـ": None,  # tatweel
        "٫": ".",
        "٬": ",",
        "،": ",",
        "؛": ";",
        "؟": "?",
        **{chr(0x06F0 + d): str(d) for d in range(10)},  # Persian digits
        **{chr(0x0660 + d): str(d) for d in range(10)},  # Arabic-Indic digits
    }
)
# Harakat, tanwin, shadda, sukun, superscript alef, hamza marks, Quranic annotation marks.
_FA_MARKS = re.compile(r"[\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed]")
_FA_PREFIX = re.compile(r"(?<![^\W_])(ن?می)\s+(?=[^\W\d_])")
_FA_SUFFIX = re.compile(r"(?<=[^\W\d_])\s+(هایی|های|ها|ترین|تر)(?![^\W_])")
_FA_PLURALS = ("هایی", "های", "ها")
# Frequent OCR misreadings in the Persian rulebook (lam-alef swaps, lost dots), as tokens.
_FA_OCR = {
    "کلاع": "کلاغ",
    "یکان": "یگان",
    "بگان": "یگان",
    "بیکان": "یگان",
    "سرزمهین": "سرزمین",
    "فواین": "قوانین",
    "عالمت": "علامت",
    "خالصه": "خلاصه",
    "بالافصله": "بلافاصله",
    "بالفاصه": "بلافاصله",
    "پلافالصله": "بلافاصله",
    "اهین": "اهنین",
    "اهینه": "اهنین",
}


def _word_list(text: str) -> frozenset[str]:
    return frozenset(text.split())


STOP_WORDS = {
    "en": _word_list(
        """a an the of to in on at for and or is are be been by with from as it its this
        that these those do does did how what when where which who whom can could may might
        should would i me my you your we our they their them there here if
        then than not no so into onto about over under up out any all each"""
    ),
    "fr": _word_list(
        """le la les un une des du de et ou où au aux en dans par pour sur sous avec sans ce
        ces cet cette se sa son ses leur leurs qui que qu quoi dont ne pas il ils elle elles
        on est sont être avoir ont je tu nous vous lui eux mon ma mes ton ta tes notre nos
        votre vos comme mais donc car ni si tout tous toute toutes"""
    ),
    "fa": _word_list("و در به از که را با این ان برای یا تا هر است بر یک هم نیز اما اگر"),
}

_STEMMERS = {"en": "english", "fr": "french"}


def _stemmer(lang: str):
    return snowballstemmer.stemmer(_STEMMERS[lang])


_STEMMER_OBJECTS = {lang: _stemmer(lang) for lang in _STEMMERS}


@lru_cache(maxsize=200_000)
def fold_accents(word: str) -> str:
    """`word` without accents or other combining marks (é -> e, ç -> c)."""
    if word.isascii():
        return word
    decomposed = unicodedata.normalize("NFKD", word)
    return unicodedata.normalize(
        "NFC", "".join(ch for ch in decomposed if unicodedata.category(ch) != "Mn")
    )


def stem(word: str, lang: str) -> str:
    """A folded word's stem (Snowball's, for English and French; the word otherwise)."""
    stemmer = _STEMMER_OBJECTS.get(lang)
    return stemmer.stemWord(word) if stemmer is not None and word.isalpha() else word


def _character_table(zwnj: str) -> dict[int, str | None]:
    """One translation table: invisible characters, apostrophes, Latin ligatures, and the
    Persian letters and digits (folded in every language: a Persian word in a French text,
    or a query typed with an Arabic keyboard, still meets the Persian index)."""
    table: dict[int, str | None] = {}
    for part in (_INVISIBLE, _APOSTROPHES, _LATIN_LIGATURES, _FA_LETTERS):
        table.update(part)
    table[ord(_ZWNJ)] = zwnj
    return table


# Persian: the half-space joins (می‌شود = میشود); elsewhere it separates words.
_TABLES = {"fa": _character_table(""), "other": _character_table(" ")}


def prepare(text: str, lang: str) -> str:
    """The character-level part of `normalise`: lower-case NFKC text with Persian letters
    unified, still with punctuation and Latin accents (they go after the stop-word check)."""
    if not text:
        return ""
    text = unicodedata.normalize("NFKC", text).casefold()
    if text.isascii():
        return text.replace("`", "'")
    text = _FA_MARKS.sub("", text).translate(_TABLES["fa" if lang == "fa" else "other"])
    if lang == "fa":
        text = _FA_PREFIX.sub(r"\1", text)
        text = _FA_SUFFIX.sub(r"\1", text)
    return text


@lru_cache(maxsize=200_000)
def _word_tokens(word: str, lang: str) -> tuple[str, ...]:
    """Tokens of one prepared word (letters and digits, maybe with inner ' or -)."""
    if lang == "fr":
        word = _FR_ELISION.sub("", word)
    elif lang == "en" and word.endswith("'s"):
        word = word[:-2]
    parts = [p for p in re.split(r"['\-]", word) if p]
    if "-" in word and len(parts) > 1 and all(p.isalpha() for p in parts):
        parts.append("".join(parts))  # port-réal -> port, réal, portréal
    out: list[str] = []
    for part in parts:
        token = _token(part, lang)
        if token and token not in out:
            out.append(token)
    return tuple(out)


def _token(part: str, lang: str) -> str:
    if len(part) < 2 and not part.isdigit():
        return ""
    # Stop words are checked before accents go: "dés" (dice) is kept, "des" is dropped.
    if part in STOP_WORDS.get(lang, ()):
        return ""
    part = fold_accents(part)
    if len(part) < 2 and not part.isdigit():
        return ""
    if lang in _STEMMER_OBJECTS and part.isascii() and part.isalpha():
        stem = _STEMMER_OBJECTS[lang].stemWord(part)
        if lang == "fr" and len(stem) > 3 and stem[-1] in "sx" and stem[-2] not in "sx":
            stem = stem[:-1]  # plurals Snowball leaves on short words: rois, jeux
        return stem
    if lang == "fa":
        return _fa_stem(part)
    return part


def _fa_stem(word: str) -> str:
    for suffix in _FA_PLURALS:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return _FA_OCR.get(word, word)


def words(text: str, lang: str) -> list[str]:
    """The prepared words of a text, before stop words and stemming."""
    return _WORD.findall(prepare(text, lang))


def tokens(text: str, lang: str) -> list[str]:
    """The search tokens of a text, in order (a word may give 0, 1 or more tokens)."""
    lang = lang if lang in LANGS else "en"
    out: list[str] = []
    for word in words(text, lang):
        out.extend(_word_tokens(word, lang))
    return out


def word_tokens(word: str, lang: str) -> tuple[str, ...]:
    """Tokens of one word as returned by `words` (cached)."""
    return _word_tokens(word, lang if lang in LANGS else "en")


def normalise(text: str, lang: str) -> str:
    """Search tokens of `text` in language `lang` ("en", "fr" or "fa"), space separated.

    >>> normalise("L’Ordre de Marche", "fr")
    'ordre march'
    >>> normalise("Messenger Ravens", "en")
    'messeng raven'
    """
    return " ".join(tokens(text, lang))


_ARABIC_SCRIPT = re.compile(r"[\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff]")
_LATIN = re.compile(r"[a-zA-Z\u00c0-\u024f]")


def scripts(text: str) -> set[str]:
    """'arabic' and/or 'latin', the scripts used by the letters of a text."""
    found = set()
    if _ARABIC_SCRIPT.search(text):
        found.add("arabic")
    if _LATIN.search(text):
        found.add("latin")
    return found
