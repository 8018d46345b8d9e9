"""The builder pages. Thin: read the request, call a selector or a service, render.

`core` holds what every page shares (who may edit or see a list, one change answered as
the panel or a redirect, the builder's context); `pages` are the pages every game has,
written once and dispatched through the list's `games.GameAdapter`; `tmg` and `tactics`
are the few endpoints only one game has. This package imports none of them, so they can
import each other's helpers from `core` without a cycle.
"""
