"""The sentence encoder's computation (BERT: embeddings, transformer layers) as an ONNX
graph, which ONNX Runtime runs: its kernels do in 2 to 5 ms what numpy did in 9 to 12.

    model = bert_graph(config, weights)       # float32, the reference computation
    quantize(model, path)                     # the same graph, its dense layers in int8

The graph takes the token ids (batch × length), their positions (0 … length-1) and the
attention mask as an additive bias (batch × 1 × 1 × length: 0 for a token, -10,000 for
padding), and gives the last layer's token vectors (batch × length × width). Pooling them
into a sentence vector is left to the caller (meaning.Encoder), with the mask it built.

`quantize` stores each dense layer's weights as int8, one scale per output column, and
quantizes each question's activations on the fly (ONNX Runtime's dynamic quantization):
four times less memory and about twice as fast again, for vectors within 0.98 cosine of
the exact ones (0.992 on average over the relevance questions; the weights in 7 bits, so
that a CPU without VNNI does not overflow: see `quantize`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from common.logs import quiet

OPSET = 17  # LayerNormalization is an operator from 17 on
INPUTS = ("input_ids", "positions", "blocked")
WORD_INPUTS = ("word_vectors", "positions", "blocked")  # a graph whose caller looks the words up
OUTPUT = "hidden"


class _Graph:
    """Nodes and weights, each intermediate value named t1, t2, …"""

    def __init__(self) -> None:
        from onnx import numpy_helper

        self._tensor = numpy_helper.from_array
        self.nodes: list[Any] = []
        self.weights: list[Any] = []
        self._count = 0

    def weight(self, name: str, value: np.ndarray) -> str:
        self.weights.append(self._tensor(np.ascontiguousarray(value), name))
        return name

    def op(self, kind: str, *inputs: str, **attributes: Any) -> str:
        return self.ops(kind, *inputs, outputs=1, **attributes)[0]

    def ops(self, kind: str, *inputs: str, outputs: int, **attributes: Any) -> list[str]:
        from onnx import helper

        names = []
        for _ in range(outputs):
            self._count += 1
            names.append(f"t{self._count}")
        self.nodes.append(helper.make_node(kind, list(inputs), names, name=names[0], **attributes))
        return names


def bert_graph(
    config: Mapping[str, Any], weights: Mapping[str, np.ndarray], *, words_outside: bool = False
) -> Any:
    """The float32 graph of a BERT encoder (`weights` as named in its safetensors file,
    without the "bert." prefix; `config` its config.json). With `words_outside`, the graph
    takes the words' vectors (batch × length × width, WORD_INPUTS) instead of their ids:
    for a vocabulary too large to hold as floats (a multilingual model's 250,000 pieces,
    kept as 4-bit blocks and looked up by the caller)."""
    from onnx import TensorProto, helper

    heads = int(config["num_attention_heads"])
    layers = int(config["num_hidden_layers"])
    eps = float(config["layer_norm_eps"])
    width = int(config["hidden_size"])
    size = width // heads
    g = _Graph()

    def w(name: str) -> str:
        return g.weight(name, weights[name].astype(np.float32))

    def dense(x: str, name: str, *parts: str) -> str:
        # Stored (out, in) as in PyTorch; the graph multiplies by (in, out). With `parts`,
        # one product for several layers side by side (the query, key and value).
        names = [f"{name}.{part}" for part in parts] or [name]
        kernel = np.concatenate([weights[f"{n}.weight"].T for n in names], axis=1)
        bias = np.concatenate([weights[f"{n}.bias"] for n in names])
        product = g.op("MatMul", x, g.weight(f"{name}.kernel", kernel.astype(np.float32)))
        return g.op("Add", product, g.weight(f"{name}.bias", bias.astype(np.float32)))

    def norm(x: str, name: str) -> str:
        return g.op("LayerNormalization", x, w(f"{name}.weight"), w(f"{name}.bias"),
                    axis=-1, epsilon=eps)  # fmt: skip

    split_heads = g.weight("split_heads", np.array([0, 0, heads, size], dtype=np.int64))
    join_heads = g.weight("join_heads", np.array([0, 0, width], dtype=np.int64))
    thirds = g.weight("thirds", np.array([width] * 3, dtype=np.int64))
    scale = g.weight("scale", np.array(1.0 / np.sqrt(size), dtype=np.float32))
    half = g.weight("half", np.array(0.5, dtype=np.float32))
    one = g.weight("one", np.array(1.0, dtype=np.float32))
    root_half = g.weight("root_half", np.array(1.0 / np.sqrt(2.0), dtype=np.float32))
    # Token type 0 is the same for every token: added to the positions once.
    positions = g.weight(
        "positions_type",
        (weights["embeddings.position_embeddings.weight"]
         + weights["embeddings.token_type_embeddings.weight"][0]).astype(np.float32),
    )  # fmt: skip
    words = (
        WORD_INPUTS[0]
        if words_outside
        else g.op("Gather", w("embeddings.word_embeddings.weight"), "input_ids")
    )
    x = g.op("Add", words, g.op("Gather", positions, "positions"))
    x = norm(x, "embeddings.LayerNorm")
    for n in range(layers):
        layer = f"encoder.layer.{n}."
        qkv = dense(x, f"{layer}attention.self", "query", "key", "value")
        q, k, v = g.ops("Split", qkv, thirds, outputs=3, axis=-1)
        q, v = (
            g.op("Transpose", g.op("Reshape", t, split_heads), perm=[0, 2, 1, 3]) for t in (q, v)
        )
        k = g.op("Transpose", g.op("Reshape", k, split_heads), perm=[0, 2, 3, 1])
        scores = g.op("Add", g.op("Mul", g.op("MatMul", q, k), scale), "blocked")
        context = g.op("MatMul", g.op("Softmax", scores, axis=-1), v)
        context = g.op("Reshape", g.op("Transpose", context, perm=[0, 2, 1, 3]), join_heads)
        x = norm(g.op("Add", x, dense(context, f"{layer}attention.output.dense")),
                 f"{layer}attention.output.LayerNorm")  # fmt: skip
        inner = dense(x, f"{layer}intermediate.dense")
        # BERT's exact GELU: x/2 · (1 + erf(x/√2)); ONNX Runtime fuses it into one kernel.
        gelu = g.op("Mul", g.op("Mul", inner, half),
                    g.op("Add", g.op("Erf", g.op("Mul", inner, root_half)), one))  # fmt: skip
        x = norm(g.op("Add", x, dense(gelu, f"{layer}output.dense")), f"{layer}output.LayerNorm")
    g.nodes.append(helper.make_node("Identity", [x], [OUTPUT], name=OUTPUT))
    graph = helper.make_graph(
        g.nodes,
        "sentence-encoder",
        [
            (
                helper.make_tensor_value_info(
                    WORD_INPUTS[0], TensorProto.FLOAT, ["batch", "length", width]
                )
                if words_outside
                else helper.make_tensor_value_info(
                    "input_ids", TensorProto.INT64, ["batch", "length"]
                )
            ),
            helper.make_tensor_value_info("positions", TensorProto.INT64, ["length"]),
            helper.make_tensor_value_info("blocked", TensorProto.FLOAT, ["batch", 1, 1, "length"]),
        ],
        [helper.make_tensor_value_info(OUTPUT, TensorProto.FLOAT, ["batch", "length", width])],
        g.weights,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 8  # read by every ONNX Runtime since 1.10
    return model


def quantize(model: Any, path: Path) -> None:
    """Writes to `path` the graph with its dense layers' weights in int8 (one scale per
    output column) and their inputs quantized per call.

    The weights use 7 bits of the 8 (`reduce_range`): on a CPU without VNNI (AVX2, or
    AVX-512 before VNNI, as on many servers) ONNX Runtime multiplies the inputs' uint8 by
    the weights' int8 in pairs summed into 16 bits, which full-range weights overflow. On
    an AMD EPYC with AVX2, full-range weights cost the questions' vectors up to 0.03 of
    cosine and the relevance set 11 first places of 907 (docs/search.md, round 17); with
    7 bits it ranks as the exact float32 run does, within noise (736 first against 735)."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with quiet(None):  # its advice to pre-process the graph, logged at each call
        quantize_dynamic(
            model, path, per_channel=True, reduce_range=True, weight_type=QuantType.QInt8
        )
