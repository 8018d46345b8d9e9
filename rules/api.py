"""Rules reference API (contracts §4): search and one section. Thin views over rules.search."""

from django.db.models import Q
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import APIException, NotFound
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from cards.models import Game

from .models import Language, Rulebook, Section
from .search import MAX_QUERY_LENGTH, search_sections

DEFAULT_LIMIT = 20
MAX_LIMIT = 50
EXPLAIN_VALUES = {"": False, "0": False, "false": False, "1": True, "true": True}


class InvalidSearch(APIException):
    status_code = 400
    default_code = "invalid_search"
    default_detail = _("Invalid search.")

    def __init__(self, detail, code: str):
        super().__init__(detail, code)
        self.default_code = code  # the error body's "code" (armybuilder.api_errors)


def section_url(section: Section) -> str:
    """The section's page: /rules/<book-slug>/<section-slug>/."""
    try:
        return reverse("rules:section", args=[section.book.slug, section.slug])
    except NoReverseMatch:
        return f"/rules/{section.book.slug}/{section.slug}/"


def search_params(params) -> dict:
    """The validated search parameters, or InvalidSearch with a readable message."""
    raw = params.get("q") or ""
    q = raw.strip()
    if not q:
        raise InvalidSearch(_("The q parameter is required: the words to search for."), "empty")
    if len(raw) > MAX_QUERY_LENGTH:
        raise InvalidSearch(
            _("The query is too long: at most %(max)d characters.") % {"max": MAX_QUERY_LENGTH},
            "too_long",
        )
    # Given, lang and game must be one of the schema's values (an empty one is a 400 too).
    lang = params["lang"].strip().lower() if "lang" in params else None
    if lang is not None and lang not in Language.values:
        raise InvalidSearch(_("Unknown lang: use one of en, fr, fa."), "invalid_lang")
    game = params["game"].strip().lower() if "game" in params else None
    if game is not None and game not in Game.values:
        raise InvalidSearch(_("Unknown game: use one of tmg, tactics, agot, hotk."), "invalid_game")
    book = (params.get("book") or "").strip() or None
    if book is not None and not Rulebook.objects.filter(slug=book).exists():
        raise InvalidSearch(_("Unknown rulebook: %(book)s.") % {"book": book[:80]}, "invalid_book")
    raw_limit = (params.get("limit") or "").strip()
    try:
        limit = int(raw_limit) if raw_limit else DEFAULT_LIMIT
    except ValueError:
        limit = 0
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidSearch(
            _("limit must be a whole number from 1 to %(max)d.") % {"max": MAX_LIMIT},
            "invalid_limit",
        )
    explain = (params.get("explain") or "").strip().lower()
    if explain not in EXPLAIN_VALUES:
        raise InvalidSearch(_("explain must be 1 or 0 (true or false)."), "invalid_explain")
    return {
        "query": q,
        "lang": lang,
        "book": book,
        "game": game,
        "limit": limit,
        "explain": EXPLAIN_VALUES[explain],
    }


ErrorSerializer = inline_serializer(
    "RulesError", {"detail": serializers.CharField(), "code": serializers.CharField()}
)

SEARCH_RESULT_FIELDS = {
    "section": serializers.IntegerField(help_text="Section id (/api/v1/rules/sections/{id}/)."),
    "book": serializers.CharField(help_text="Rulebook slug."),
    "lang": serializers.CharField(help_text="Language of the rulebook: en, fr or fa."),
    "game": serializers.CharField(help_text="tmg, tactics, agot or hotk."),
    "heading": serializers.CharField(),
    "heading_html": serializers.CharField(help_text="Heading, HTML-escaped, with <mark>."),
    "snippet": serializers.CharField(
        help_text="Text around the matched words, HTML-escaped, with <mark>…</mark>."
    ),
    "url": serializers.CharField(help_text="The section's page."),
    "score": serializers.FloatField(help_text="Higher is better."),
    "kind": serializers.CharField(),
    "page": serializers.IntegerField(allow_null=True),
}
EXPLAIN_UNIT_FIELDS = {
    "query": serializers.CharField(help_text="The query words this part stands for."),
    "read_as": serializers.ChoiceField(
        choices=["query", "typo", "term", "word", "dictionary", "foreign"],
        help_text="query: as typed; typo: corrected; term: a glossary game term translated; "
        "word: an ordinary word translated by the lexicon; dictionary: a word the lexicon "
        "lacks, translated by the general EN-FR dictionary; foreign: kept as typed in a book "
        "of another language.",
    ),
    "concept": serializers.CharField(
        allow_null=True, help_text="The glossary key of a game term (concept map)."
    ),
    "share": serializers.FloatField(help_text="Its weight in the query (IDF × origin), 0..1."),
    "matched": serializers.ListField(
        child=serializers.CharField(), help_text="Search tokens it matched (empty: none)."
    ),
    "where": serializers.ChoiceField(
        choices=["heading", "body", "context", "notes"],
        allow_null=True,
        help_text="context: only in the headings the section stands in (a game mode's name "
        "for its Setup); notes: in the English words the project's notes give the section "
        "(rules/data/section_notes).",
    ),
    "score": serializers.FloatField(help_text="0 (absent) to 1 (in the heading)."),
}
EXPLAIN_FIELDS = {
    "coverage": serializers.FloatField(help_text="Weighted share of the query found, 0..1."),
    "heading_coverage": serializers.FloatField(help_text="The same, in the heading alone."),
    "reading": serializers.CharField(
        allow_null=True, help_text="The language the query was read in for this section."
    ),
    "reading_weight": serializers.FloatField(
        help_text="How likely that reading is (1, or less for another language's reading)."
    ),
    "units": inline_serializer("RulesSearchExplainUnit", EXPLAIN_UNIT_FIELDS, many=True),
    "defines": serializers.ListField(
        child=serializers.CharField(),
        help_text="Glossary terms of the query this section defines (concept map).",
    ),
    "boosts": serializers.DictField(
        child=serializers.FloatField(),
        help_text="Points added or taken off: defines, game, game_named, heading_focus, "
        "passage, language, kind_penalty, fragments, number, meaning.",
    ),
    "meaning": inline_serializer(
        "RulesSearchExplainMeaning",
        {
            "phrase": serializers.CharField(
                allow_null=True,
                help_text="The heading, note phrase or note question closest in meaning to "
                "the query (null: the section has none).",
            ),
            "similarity": serializers.FloatField(
                help_text="Its similarity: the models' weighted mean of their cosine "
                "similarities, each above the level of unrelated texts (about 0 for the "
                "English model, 0.75 for the multilingual one); 1 for the same text."
            ),
            "sentence": serializers.CharField(
                allow_null=True,
                help_text="The sentence of the section's body closest in meaning to the "
                "query, as the book writes it (null: none was encoded).",
            ),
            "sentence_similarity": serializers.FloatField(
                help_text="Its similarity, as above (the English model reads a French "
                "sentence in its English gloss, the multilingual one as written)."
            ),
            "question": serializers.CharField(
                help_text="What the models read of the query: the English model's reading "
                "when it read it (the query, or its word-for-word English gloss when it "
                "reads as French), else the query itself."
            ),
            "read_by": serializers.DictField(
                child=serializers.CharField(allow_null=True),
                help_text="Each installed meaning model (all-MiniLM-L6-v2, "
                "multilingual-e5-small) and what it read of the query (null: a language it "
                "does not read, such as Persian for the English model).",
            ),
        },
        allow_null=True,
        help_text="For a query in a language a meaning model reads (English and French; "
        "Persian too with the multilingual model), when one is installed: the section's "
        "phrase and body sentence closest to the query (their boost is in boosts.meaning); "
        "null otherwise.",
    ),
    "passage_line": serializers.IntegerField(
        allow_null=True,
        help_text="The body line where the best passage (the lines holding most of the "
        "query together) starts; null when passages were not scored for this section.",
    ),
    "asks_number": serializers.BooleanField(
        help_text="The query asks for a number or a limit ('how many', 'combien'): a "
        "section whose best passage states one gets the number boost."
    ),
    "asks_kinds": serializers.ListField(
        child=serializers.CharField(),
        help_text="The kinds of section the query asks for ('who designed': credits; "
        "'example': example): they rank without their kind penalty.",
    ),
    "game_likelihood": serializers.DictField(
        child=serializers.FloatField(), help_text="Each game's likelihood given the query."
    ),
    "games_named": serializers.ListField(
        child=serializers.CharField(), help_text="Games the query names."
    ),
}
SEARCH_RESULT_FIELDS["explain"] = inline_serializer(
    "RulesSearchExplain",
    EXPLAIN_FIELDS,
    required=False,
    help_text="Why the section ranked (only with explain=1); see docs/search.md.",
)
SearchResponseSerializer = inline_serializer(
    "RulesSearchResponse",
    {
        "query": serializers.CharField(),
        "results": inline_serializer("RulesSearchResult", SEARCH_RESULT_FIELDS, many=True),
    },
)

TRANSLATION_FIELDS = {
    "section": serializers.IntegerField(),
    "book": serializers.CharField(),
    "lang": serializers.CharField(),
    "heading": serializers.CharField(),
    "url": serializers.CharField(),
}
SectionSerializer = inline_serializer(
    "RulesSection",
    {
        "id": serializers.IntegerField(),
        "book": serializers.CharField(help_text="Rulebook slug."),
        "book_title": serializers.CharField(),
        "lang": serializers.CharField(),
        "game": serializers.CharField(),
        "slug": serializers.CharField(),
        "kind": serializers.CharField(),
        "heading": serializers.CharField(),
        "body": serializers.CharField(),
        "page_start": serializers.IntegerField(allow_null=True),
        "page_end": serializers.IntegerField(allow_null=True),
        "parent": serializers.IntegerField(allow_null=True),
        "rule_key": serializers.CharField(),
        "url": serializers.CharField(),
        "translations": inline_serializer("RulesSectionTranslation", TRANSLATION_FIELDS, many=True),
    },
)


def _search_result(hit) -> dict:
    section = hit.section
    result = {
        "section": section.id,
        "book": section.book.slug,
        "lang": section.book.lang,
        "game": section.book.game,
        "heading": section.heading,
        "heading_html": hit.heading_html,
        "snippet": hit.snippet,
        "url": section_url(section),
        "score": hit.score,
        "kind": section.kind,
        "page": section.page_start,
    }
    if hit.explanation is not None:
        result["explain"] = hit.explanation
    return result


def translations_of(section: Section) -> list[Section]:
    """Sections of the same rule (same rule_key) in the other books of the same game and,
    when the books say so, the same edition."""
    if not section.rule_key:
        return []
    others = Section.objects.filter(rule_key=section.rule_key, book__game=section.book.game)
    others = others.exclude(book_id=section.book_id).select_related("book")
    if section.book.edition_key:
        others = others.filter(Q(book__edition_key=section.book.edition_key))
    return list(others.order_by("book__lang", "book__slug", "position"))


class RulesSearchView(APIView):
    """Full-text search of the rulebooks (EN/FR/FA, cross-language, typo-tolerant)."""

    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        operation_id="rules_search",
        parameters=[
            OpenApiParameter(
                "q",
                {"type": "string", "minLength": 1, "maxLength": MAX_QUERY_LENGTH, "pattern": r"\S"},
                required=True,
                description=f"Words to search for, in any language (at most {MAX_QUERY_LENGTH} "
                "characters), e.g. `corbeau messager`, `messenger raven`, `کلاغ`.",
            ),
            OpenApiParameter(
                "lang",
                OpenApiTypes.STR,
                enum=list(Language.values),
                description="Only books in this language.",
            ),
            OpenApiParameter("book", OpenApiTypes.STR, description="Only this rulebook (slug)."),
            OpenApiParameter(
                "game", OpenApiTypes.STR, enum=list(Game.values), description="Only this game."
            ),
            OpenApiParameter(
                "limit",
                {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
                description=f"Results (1 to {MAX_LIMIT}, default {DEFAULT_LIMIT}).",
            ),
            OpenApiParameter(
                "explain",
                OpenApiTypes.BOOL,
                description="1: each result carries `explain`, why it ranked: the parts of "
                "the query it matched (as typed, corrected, glossary term, lexicon word), "
                "where, their weights, and the boosts (definitions, game, language, kind).",
            ),
        ],
        responses={200: SearchResponseSerializer, 400: ErrorSerializer},
    )
    def get(self, request):
        params = search_params(request.query_params)
        hits = search_sections(
            params["query"],
            lang=params["lang"],
            book=params["book"],
            game=params["game"],
            limit=params["limit"],
            explain=params["explain"],
        )
        return Response({"query": params["query"], "results": [_search_result(h) for h in hits]})


class RulesSectionView(APIView):
    """One section with its text and its translations (same rule in the other languages)."""

    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        operation_id="rules_section_retrieve",
        responses={200: SectionSerializer, 404: ErrorSerializer},
    )
    def get(self, request, pk: int):
        section = (
            Section.objects.select_related("book").defer("raw", "book__raw_text").filter(pk=pk)
        ).first()
        if section is None:
            raise NotFound()
        translations = [
            {
                "section": other.id,
                "book": other.book.slug,
                "lang": other.book.lang,
                "heading": other.heading,
                "url": section_url(other),
            }
            for other in translations_of(section)
        ]
        return Response(
            {
                "id": section.id,
                "book": section.book.slug,
                "book_title": section.book.title,
                "lang": section.book.lang,
                "game": section.book.game,
                "slug": section.slug,
                "kind": section.kind,
                "heading": section.heading,
                "body": section.body,
                "page_start": section.page_start,
                "page_end": section.page_end,
                "parent": section.parent_id,
                "rule_key": section.rule_key,
                "url": section_url(section),
                "translations": translations,
            }
        )
