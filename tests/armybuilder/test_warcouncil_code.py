import base64
import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from armybuilder.listtext.warcouncil import (
    ShareCodeError,
    WarCouncilList,
    WarCouncilUnit,
    decode_share_code,
    encode_share_code,
)

STARK_LIST = WarCouncilList(
    name="Wolves",
    faction="stark",
    points=40,
    units=(WarCouncilUnit("10201", ("20201",)), WarCouncilUnit("10204", ("20206",))),
    ncu_ids=("30201",),
)


def test_share_code_round_trips():
    decoded = decode_share_code(encode_share_code(STARK_LIST))
    assert decoded.name == "Wolves"
    assert decoded.faction == "stark" and decoded.points == 40
    assert decoded.units == STARK_LIST.units
    assert decoded.ncu_ids == ("30201",)


def test_share_code_decodes_hand_written_bytes():
    # name "A", faction 7 (Targaryen), 30 points, unit 10701 with attachment 20701, NCU 30621
    unit = bytes([0x08]) + bytes([0xCD, 0x53]) + bytes([0x10]) + bytes([0xDD, 0xA1, 0x01])
    raw = (
        bytes([0x12, 0x01])
        + b"A"
        + bytes([0x18, 0x07, 0x20, 0x1E, 0x28, 0x01])
        + bytes([0x5A, len(unit)])
        + unit
        + bytes([0x60, 0x9D, 0xEF, 0x01])
    )
    decoded = decode_share_code(base64.b64encode(raw).decode())
    assert decoded.faction == "targaryen" and decoded.points == 30
    assert decoded.units == (WarCouncilUnit("10701", ("20701",)),)
    assert decoded.ncu_ids == ("30621",)


def test_share_code_with_whitespace_and_missing_padding_decodes():
    code = encode_share_code(STARK_LIST).rstrip("=")
    assert decode_share_code(f"  {code[:10]}\n{code[10:]} ").units == STARK_LIST.units


@pytest.mark.parametrize("bad", ["", "not base64 at all!!", "AAAA", "////"])
def test_share_code_rejects_bad_input(bad):
    with pytest.raises(ShareCodeError):
        decode_share_code(bad)


@given(st.text(max_size=200))
def test_share_code_decoder_raises_only_share_code_errors(text):
    with contextlib.suppress(ShareCodeError):
        decode_share_code(text)
