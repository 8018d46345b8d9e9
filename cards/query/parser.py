"""Recursive-descent parser: query text -> `Query`. Pure Python, no ORM.

    query    = [ or_expr ] ;
    or_expr  = and_expr { ("or" | "ou") and_expr } ;
    and_expr = unary { [ "and" | "et" ] unary } ;         (* implicit AND *)
    unary    = "-" unary | primary ;
    primary  = "(" or_expr ")" | word | phrase | field ;
    field    = key op value ;

AND binds tighter than OR. `sort:` / `dir:` are directives, not filters: they apply to the
whole query wherever they stand, but cannot be negated nor be one whole side of an `or`.
"""

from __future__ import annotations

import re

from cards.normalise import fold

from . import fields as f
from .ast import And, Directive, Field, Node, Not, Or, Query, Word
from .errors import QuerySyntaxError
from .lexer import T, Token, tokenize

MAX_LENGTH = 1000
MAX_DEPTH = 32
_NUMBER = re.compile(r"[0-9]+\+?")
_STOPS = (T.EOF, T.RPAREN, T.OR, T.AND)
_KEYWORD_FR = {T.OR: "ou", T.AND: "et"}


def parse(query: str) -> Query:
    """Parse a query; raises `QuerySyntaxError` (and nothing else) when it cannot be read."""
    if not isinstance(query, str):
        raise QuerySyntaxError("The query must be text", "La requête doit être du texte", 0)
    if len(query) > MAX_LENGTH:
        raise QuerySyntaxError(
            f"Query too long (more than {MAX_LENGTH} characters)",
            f"Requête trop longue (plus de {MAX_LENGTH} caractères)",
            MAX_LENGTH,
            len(query) - MAX_LENGTH,
        )
    return _Parser(tokenize(query)).query()


class _Parser:
    def __init__(self, tokens: list[Token]):
        self.tokens = tokens
        self.index = 0
        self.depth = 0

    def peek(self) -> Token:
        return self.tokens[self.index]

    def advance(self) -> Token:
        token = self.tokens[self.index]
        if token.type is not T.EOF:
            self.index += 1
        return token

    # --- grammar ---------------------------------------------------------------------

    def query(self) -> Query:
        if self.peek().type is T.EOF:
            return Query()
        expr = self.or_expr()
        token = self.peek()
        if token.type is not T.EOF:  # only a stray ")" stops an or_expr before the end
            raise _unexpected(token)
        return _lift_directives(expr)

    def or_expr(self) -> Node | Directive:
        operands = [self.and_expr()]
        while self.peek().type is T.OR:
            keyword = self.advance()
            self.expect_term_after(keyword)
            operands.append(self.and_expr())
        # Directives stand in And/Or/Not until _lift_directives takes them out of the tree.
        return operands[0] if len(operands) == 1 else Or(tuple(operands))  # type: ignore[arg-type]

    def and_expr(self) -> Node | Directive:
        self.expect_term_before(self.peek())
        operands = [self.unary()]
        while True:
            token = self.peek()
            if token.type is T.AND:
                self.advance()
                self.expect_term_after(token)
            elif token.type in (T.EOF, T.RPAREN, T.OR):
                break
            operands.append(self.unary())
        return operands[0] if len(operands) == 1 else And(tuple(operands))  # type: ignore[arg-type]

    def unary(self) -> Node | Directive:
        token = self.peek()
        if token.type is not T.NOT:
            return self.primary()
        self.advance()
        following = self.peek()
        if following.type in _STOPS or following.position != token.position + 1:
            raise QuerySyntaxError(
                "Expected a search term right after '-'",
                "Un terme de recherche doit suivre immédiatement « - »",
                token.position,
            )
        with self.nested(token):
            return Not(self.unary(), token.position)  # type: ignore[arg-type]

    def primary(self) -> Node | Directive:
        token = self.advance()
        if token.type is T.LPAREN:
            if self.peek().type is T.RPAREN:
                raise QuerySyntaxError("Empty parentheses", "Parenthèses vides", token.position, 2)
            with self.nested(token):
                expr = self.or_expr()
            if self.peek().type is not T.RPAREN:
                raise QuerySyntaxError("Unclosed '('", "« ( » non fermée", token.position)
            self.advance()
            return expr
        if token.type is T.WORD:
            return _word(token, quoted=False)
        if token.type is T.PHRASE:
            return _word(token, quoted=True)
        if token.type is T.FIELD:
            return _field(token)
        raise _unexpected(token)

    # --- helpers ---------------------------------------------------------------------

    def expect_term_before(self, token: Token) -> None:
        if token.type in (T.OR, T.AND):
            raise _missing_term(token, "before", "précéder")

    def expect_term_after(self, keyword: Token) -> None:
        if self.peek().type in _STOPS:
            raise _missing_term(keyword, "after", "suivre")

    def nested(self, token: Token) -> _Depth:
        return _Depth(self, token)


def _missing_term(keyword: Token, where_en: str, where_fr: str) -> QuerySyntaxError:
    """A keyword (`or`, `and`) without the search term it needs before or after it."""
    return QuerySyntaxError(
        f"Expected a search term {where_en} '{keyword.text}'",
        f"Un terme de recherche doit {where_fr} « {keyword.text} »",
        keyword.position,
        keyword.length,
    )


class _Depth:
    """Bounds nesting so deep parentheses or `----x` raise a syntax error, not RecursionError."""

    def __init__(self, parser: _Parser, token: Token):
        self.parser, self.token = parser, token

    def __enter__(self) -> None:
        self.parser.depth += 1
        if self.parser.depth > MAX_DEPTH:
            raise QuerySyntaxError(
                f"Query nested too deeply (more than {MAX_DEPTH} levels)",
                f"Requête trop imbriquée (plus de {MAX_DEPTH} niveaux)",
                self.token.position,
            )

    def __exit__(self, *exc: object) -> None:
        self.parser.depth -= 1


def _unexpected(token: Token) -> QuerySyntaxError:
    if token.type is T.EOF:
        return QuerySyntaxError(
            "Unexpected end of query", "Fin de requête inattendue", token.position
        )
    shown = token.text or token.type.value
    return QuerySyntaxError(
        f"Unexpected '{shown}'", f"« {shown} » inattendu", token.position, token.length
    )


def _word(token: Token, *, quoted: bool) -> Word:
    if not fold(token.text).strip():
        raise QuerySyntaxError(
            "Empty search term", "Terme de recherche vide", token.position, token.length
        )
    return Word(token.text, quoted, token.position, token.length)


def _field(token: Token) -> Node | Directive:
    spec = f.lookup(token.key)
    if spec is None:
        raise QuerySyntaxError(
            f"Unknown field '{token.key}'",
            f"Champ inconnu « {token.key} »",
            token.position,
            len(token.key),
        )
    if token.op not in spec.operators:
        allowed = " ".join(spec.operators)
        raise QuerySyntaxError(
            f"Operator '{token.op}' cannot be used with '{token.key}' (use {allowed})",
            f"L'opérateur « {token.op} » ne s'emploie pas avec « {token.key} » "
            f"(utilisez {allowed})",
            token.op_position,
            len(token.op),
        )
    value = token.text.strip()
    if not fold(value):
        raise _bad_value(token, "Empty value for", "Valeur vide pour")
    if spec.kind == f.NUMBER:
        if not _NUMBER.fullmatch(value):
            raise _bad_value(token, "Expected a number for", "Nombre attendu pour")
        op = "=" if token.op == ":" else token.op
        return Field(spec.name, op, int(value.rstrip("+")), token.position, token.length)
    node: Node | Directive
    if spec.kind == f.TEXT:
        node = Field(spec.name, ":", value, token.position, token.length)
    else:
        choice = spec.choice(value)
        if choice is None:
            expected = ", ".join(spec.choices)
            raise _bad_value(
                token,
                "Unknown value for",
                "Valeur inconnue pour",
                f" (expected {expected})",
                f" (valeurs possibles : {expected})",
            )
        if spec.kind == f.DIRECTIVE:
            if token.op == "!=":
                raise QuerySyntaxError(
                    f"'{token.key}' cannot be negated",
                    f"« {token.key} » ne peut pas être nié",
                    token.op_position,
                    len(token.op),
                )
            return Directive(spec.name, choice, token.position, token.length)
        if spec.kind == f.BOOL:
            node = Field(spec.name, ":", choice == "yes", token.position, token.length)
        elif spec.kind == f.FLAG:
            node = Field("is", ":", choice, token.position, token.length)
            if spec.negated:
                node = Not(node, token.position)
        else:
            node = Field(spec.name, ":", choice, token.position, token.length)
    return Not(node, token.op_position) if token.op == "!=" else node


def _bad_value(
    token: Token, en: str, fr: str, en_tail: str = "", fr_tail: str = ""
) -> QuerySyntaxError:
    key, value = token.key, token.text
    return QuerySyntaxError(
        f"{en} '{key}': '{value}'{en_tail}",
        f"{fr} « {key} » : « {value} »{fr_tail}",
        token.value_position,
        token.value_length,
    )


def _lift_directives(expr: Node | Directive) -> Query:
    """Moves every `sort:`/`dir:` into the Query (last one wins), wherever it stands.

    `jaime or cersei sort:cost` sorts the whole result; a directive cannot be negated
    (`-sort:cost`) nor stand alone as one side of an `or` (`jaime or sort:cost`).
    """
    settings: dict[str, str] = {}

    def lift(node: Node | Directive) -> Node | None:
        if isinstance(node, Directive):
            settings[node.name] = node.value
            return None
        if isinstance(node, Not):
            directive = _first_directive(node.operand)
            if directive is not None:
                raise QuerySyntaxError(
                    f"'{directive.name}:' cannot be negated",
                    f"« {directive.name}: » ne peut pas être nié",
                    directive.position,
                    directive.length,
                )
            return node
        if isinstance(node, And):
            kept = [k for k in (lift(child) for child in node.operands) if k is not None]
            if not kept:
                return None
            return kept[0] if len(kept) == 1 else And(tuple(kept))
        if isinstance(node, Or):
            operands = []
            for child in node.operands:
                lifted = lift(child)
                if lifted is None:
                    directive = _first_directive(child)
                    assert directive is not None
                    raise QuerySyntaxError(
                        f"'{directive.name}:' cannot be one side of 'or'",
                        f"« {directive.name}: » ne peut pas être un côté de « ou »",
                        directive.position,
                        directive.length,
                    )
                operands.append(lifted)
            return Or(tuple(operands))
        return node

    filtered = lift(expr)
    return Query(filtered, settings.get("sort"), settings.get("dir", "asc"))


def _first_directive(node: Node | Directive) -> Directive | None:
    if isinstance(node, Directive):
        return node
    if isinstance(node, Not):
        return _first_directive(node.operand)
    if isinstance(node, And | Or):
        for child in node.operands:
            found = _first_directive(child)
            if found is not None:
                return found
    return None
