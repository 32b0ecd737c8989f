"""Tables that fit the terminal without cutting a run id, a path or a number.

A rich Table squeezed below its natural width shortens cells with "…", and a
cut run id is one nobody can paste into `--resume`. `Records` renders as a
table when the table fits the width it is given, and otherwise as one
`key: value` block per row, whose values fold onto further lines: everything
stays whole at 80 columns. `folding_table` is a table whose text columns fold
and whose number columns never wrap, for the tables that stay tables. `counted`
says "1 page", not "1 pages".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text


@dataclass
class Records:
    """Rows of (column → cell) as a table when it fits, else as key: value blocks."""

    columns: Sequence[str]
    rows: list[Sequence[str]] = field(default_factory=list)
    title: str | None = None
    caption: str | None = None
    numeric: frozenset[str] = frozenset()  # right-aligned in the table
    # A row's own narrow form (e.g. two short lines), instead of one line per column:
    narrow: Callable[[Sequence[str]], RenderableType] | None = None

    def add_row(self, *cells: str) -> None:
        """Cells are data (a page title, a URL), shown as written (`_DataTable`)."""
        self.rows.append(cells)

    def table(self) -> Table:
        table = _DataTable(title=self.title)
        for name in self.columns:
            justify = "right" if name in self.numeric else "left"
            table.add_column(name, justify=justify, no_wrap=True)
        for row in self.rows:
            table.add_row(*row)
        return table

    def blocks(self) -> Group:
        parts: list = []
        if self.title:
            parts.append(Text(self.title, style="italic"))
        width = max((len(name) for name in self.columns), default=0)
        for index, row in enumerate(self.rows):
            if self.narrow is not None:
                parts.append(self.narrow(row))
                continue
            grid = _DataTable.grid(padding=(0, 1))
            grid.add_column(style="dim", no_wrap=True, min_width=width + 1)
            grid.add_column(overflow="fold")
            for name, cell in zip(self.columns, row, strict=True):
                grid.add_row(f"{name}:", cell)
            if index:
                parts.append(Text(""))
            parts.append(grid)
        if not self.rows:
            parts.append(Text("(none)", style="dim"))
        if self.caption:
            parts.append(Text(self.caption, overflow="fold"))
        return Group(*parts)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table = self.table()
        natural = console.measure(table, options=options.update_width(1_000_000)).maximum
        if natural <= options.max_width:
            yield table
            if self.caption:  # under the table, not inside it: a narrow table would fold it
                yield Text(self.caption, overflow="fold")
        else:
            yield self.blocks()


def counted(n: int, noun: str) -> str:
    """A count and its noun, plural unless one (nouns whose plural adds an s).

    >>> counted(1, "page"), counted(0, "link"), counted(12_000, "page")
    ('1 page', '0 links', '12,000 pages')
    """
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def shown_path(path: Path) -> str:
    """A path as printed in a table: relative to the working directory when under it, as
    the data folder is by default (`.kgcrawl/runs/<run id>/state.sqlite`, 59 characters,
    where the absolute path would fold at 80 columns); else as it is.

    >>> shown_path(Path.cwd() / ".kgcrawl" / "runs"), shown_path(Path("/elsewhere/x"))
    ('.kgcrawl/runs', '/elsewhere/x')
    """
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


class _DataTable(Table):
    """A Table whose text cells are data, shown as written, never read as rich markup,
    which drops `[travel]` from a page title and stops at `[/b]` (MarkupError); a styled
    cell is given as a rich Text."""

    def add_row(self, *renderables, **kwargs) -> None:
        cells = (Text(cell) if isinstance(cell, str) else cell for cell in renderables)
        super().add_row(*cells, **kwargs)


@dataclass
class ByWidth:
    """`wide` (a table) when the terminal has `needs` columns, else `narrow`: below that,
    rich shrinks a text column to nothing and cuts the numbers with "…" (rich's own least
    measure of a table is below what it takes to show it whole)."""

    wide: RenderableType
    narrow: RenderableType
    needs: int

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.wide if self.needs <= options.max_width else self.narrow


def table_width(columns: Sequence[int]) -> int:
    """The width of a boxed table whose columns hold this many characters (padding 1).

    >>> table_width([10, 6])
    23
    """
    return sum(columns) + 3 * len(columns) + 1


def folding_table(
    *columns: str, numeric: Sequence[str] = (), whole: Sequence[str] = (), **kwargs
) -> Table:
    """A Table whose text columns fold (never "…") and whose number columns never wrap, nor
    the `whole` ones (keys: the room goes to the values, whose paths then fold less); its
    text cells are shown as written, never read as rich markup."""
    table = _DataTable(**kwargs)
    for name in columns:
        if name in numeric:
            table.add_column(name, justify="right", no_wrap=True)
        else:
            table.add_column(name, overflow="fold", no_wrap=name in whole)
    return table
