"""War Council share codes: a Base64 protobuf message, decoded without a schema file.

Fields, as the War Council app writes them (ids are the community data's card ids):
  2  string   list name
  3  varint   faction code (1 Lannister … 11 Brotherhood; the KFFNN "FF" of card ids)
  4  varint   points limit
  5  varint   a flag the app always sets (kept, ignored)
  11 message  a combat unit: 1 = unit id, 2 = attachment id (repeated)
  12 varint   an NCU id (repeated, packed or not)
  13 varint   an extra card (enemy attachments such as hostages; repeated)
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass, field

FACTION_CODES = {
    1: "lannister",
    2: "stark",
    3: "freefolk",
    4: "neutral",
    5: "nightswatch",
    6: "baratheon",
    7: "targaryen",
    8: "greyjoy",
    9: "martell",
    10: "bolton",
    11: "brotherhood",
}
FACTION_SLUG_CODES = {slug: code for code, slug in FACTION_CODES.items()}


_SHARE_CODE = re.compile(r"^[A-Za-z0-9+/_=-]{8,4000}$")


class ShareCodeError(ValueError):
    pass


def looks_like_share_code(text: str) -> bool:
    """One word of Base64 (no spaces, no "Faction:" header): a War Council share code."""
    return bool(_SHARE_CODE.match((text or "").strip()))


@dataclass(frozen=True)
class WarCouncilUnit:
    unit_id: str
    attachment_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class WarCouncilList:
    name: str = ""
    faction: str | None = None
    faction_code: int = 0
    points: int | None = None
    units: tuple[WarCouncilUnit, ...] = ()
    ncu_ids: tuple[str, ...] = ()
    extra_ids: tuple[str, ...] = ()
    flags: dict = field(default_factory=dict)


def _varint(data: bytes, offset: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if offset >= len(data):
            raise ShareCodeError("truncated number")
        byte = data[offset]
        offset += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, offset
        shift += 7
        if shift > 63:
            raise ShareCodeError("number too long")


def _fields(data: bytes):
    offset = 0
    while offset < len(data):
        key, offset = _varint(data, offset)
        number, wire = key >> 3, key & 0x07
        if wire == 0:
            value, offset = _varint(data, offset)
            yield number, wire, value
        elif wire == 2:
            length, offset = _varint(data, offset)
            if offset + length > len(data):
                raise ShareCodeError("truncated field")
            yield number, wire, data[offset : offset + length]
            offset += length
        elif wire == 5:
            offset += 4
        elif wire == 1:
            offset += 8
        else:
            raise ShareCodeError(f"unsupported wire type {wire}")


def _ids(wire: int, value) -> list[str]:
    if wire == 0:
        return [str(value)]
    packed, offset, ids = bytes(value), 0, []
    while offset < len(packed):
        number, offset = _varint(packed, offset)
        ids.append(str(number))
    return ids


def decode_share_code(code: str) -> WarCouncilList:
    cleaned = "".join((code or "").split())
    if not cleaned:
        raise ShareCodeError("empty share code")
    try:
        data = base64.b64decode(cleaned + "=" * (-len(cleaned) % 4), altchars=b"-_")
    except (binascii.Error, ValueError) as exc:
        raise ShareCodeError("not a Base64 share code") from exc
    name, faction_code, points = "", 0, None
    units: list[WarCouncilUnit] = []
    ncus: list[str] = []
    extras: list[str] = []
    flags: dict = {}
    for number, wire, value in _fields(data):
        if number == 2 and wire == 2:
            name = bytes(value).decode("utf-8", errors="replace")
        elif number == 3 and wire == 0:
            faction_code = value
        elif number == 4 and wire == 0:
            points = value
        elif number == 11 and wire == 2:
            unit_id, attachments = "", []
            for sub_number, sub_wire, sub_value in _fields(bytes(value)):
                if sub_number == 1 and sub_wire == 0:
                    unit_id = str(sub_value)
                elif sub_number == 2:
                    attachments.extend(_ids(sub_wire, sub_value))
            if unit_id:
                units.append(WarCouncilUnit(unit_id, tuple(attachments)))
        elif number == 12:
            ncus.extend(_ids(wire, value))
        elif number == 13:
            extras.extend(_ids(wire, value))
        elif wire == 0:
            flags[number] = value
    if not units and not ncus:
        raise ShareCodeError("the share code holds no units")
    return WarCouncilList(
        name=name,
        faction=FACTION_CODES.get(faction_code),
        faction_code=faction_code,
        points=points,
        units=tuple(units),
        ncu_ids=tuple(ncus),
        extra_ids=tuple(extras),
        flags=flags,
    )


def _encode_varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _key(number: int, wire: int) -> bytes:
    return _encode_varint(number << 3 | wire)


def encode_share_code(army: WarCouncilList) -> str:
    out = bytearray()
    if army.name:
        raw = army.name.encode("utf-8")
        out += _key(2, 2) + _encode_varint(len(raw)) + raw
    code = army.faction_code or FACTION_SLUG_CODES.get(army.faction or "", 0)
    out += _key(3, 0) + _encode_varint(code)
    if army.points is not None:
        out += _key(4, 0) + _encode_varint(army.points)
    out += _key(5, 0) + _encode_varint(1)
    for unit in army.units:
        body = _key(1, 0) + _encode_varint(int(unit.unit_id))
        for attachment in unit.attachment_ids:
            body += _key(2, 0) + _encode_varint(int(attachment))
        out += _key(11, 2) + _encode_varint(len(body)) + body
    for ncu in army.ncu_ids:
        out += _key(12, 0) + _encode_varint(int(ncu))
    for extra in army.extra_ids:
        out += _key(13, 0) + _encode_varint(int(extra))
    return base64.b64encode(bytes(out)).decode("ascii")
