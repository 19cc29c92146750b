"""`helpers.watch`: a run watched from a notebook while it trains. The chart `plot` (one run) or
`compare` (several) would draw for the logs so far is shown in the cell's output and redrawn in
place whenever a log grows, with a line under it saying each run's newest step; the kernel stays
free for other cells meanwhile.

The watch runs on the kernel's own event loop (an asyncio task: nothing of the notebook's is
touched from another thread); each look reads and draws in a worker thread, and the output is
replaced on the loop through the display's id (IPython's `update_display`), which JupyterLab
draws with the Vega-Lite it bundles, offline. Redrawn while watching, the output holds the
chart's spec only; when the watch ends (every run's log says it ended, `idle_exit` seconds with
no growth, or `.stop()`, which takes one last look) it is replaced by the static snapshot every
notebook chart stores (spec and PNG), so the saved notebook, nbval and the static report see
the last state.

A widget (Altair's `JupyterChart`) was the other way: its output stores a random model id and
nbval does not apply display updates, so a notebook showing one is never byte-identical when
executed again; a display updated in place draws the same chart without either.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

from helpers.errors import DataError
from helpers.runs.inputs import named
from helpers.runs.watch import Watching


def _named(run) -> tuple[str, Path | str]:
    """NAME=PATH, a bare PATH (named after its file), or a (name, path) pair."""
    if isinstance(run, tuple):
        name, path = run
        return str(name), path
    return named(str(run))


class Watch:
    """Runs watched from a notebook (`helpers.watch` starts one): shown in the cell's output,
    redrawn in place as their logs grow. `.stop()` ends it, `await .wait()` waits for its end;
    displayed again (the cell's last line), it shows its latest chart, whole.

    Attributes
    ----------
    lines : list of str
        Everything the watch said, in order: a line per newly evaluated step (the accuracies
        with their intervals), with a baseline the differences, as `python -m helpers watch`
        prints them.
    state : str
        "watching", then "ended", "stalled" or "stopped".
    """

    def __init__(
        self,
        *runs,
        baseline: str | None = None,
        every: float = 15.0,
        idle_exit: float | None = None,
        benchmarks: list[str] | None = None,
        title: str | None = None,
        **reading,
    ) -> None:
        if not runs:
            raise DataError("helpers.watch", "one run or more: a path, NAME=PATH or (name, path)")
        if not every > 0 or (idle_exit is not None and not idle_exit > 0):
            raise DataError("helpers.watch", "every and idle_exit in seconds, more than 0")
        self.watching = Watching(
            [_named(r) for r in runs], baseline=baseline, benchmarks=benchmarks, **reading
        )
        self.every, self.idle_exit, self.title = every, idle_exit, title
        self.lines: list[str] = []
        self.state = "watching"
        self.spec: dict | None = None
        self.error: BaseException | None = None
        self._chart = self._status = None  # the display handles
        self._shown = False
        self._said = ""  # the line under the chart as shown
        self._task: asyncio.Task | None = None
        self._woken = asyncio.Event()  # set by stop(): the last look is taken at once
        self._stopping = False
        self._started = time.monotonic()

    # ---- one look --------------------------------------------------------------------------

    def _look(self) -> bool:
        """Read what grew and, where something did, draw the logs so far (the spec, in
        `self.spec`); whether the chart changed. Runs in a worker thread."""
        grown, said = self.watching.look(time.monotonic())
        self.lines += said
        if not grown or not self.watching.readable:
            return False
        self.spec = _at_step(self._drawn().to_dict(), self._newest())
        return True

    def _newest(self) -> int | None:
        """The newest evaluated step said of any run."""
        steps = [w.said_up_to for w in self.watching.watched if w.said_up_to is not None]
        return max(steps) if steps else None

    def _drawn(self):
        """What `plot` or `compare` would draw for the runs as read so far."""
        w = self.watching
        if len(w.runs) > 1:
            from helpers.runs.presentation import comparison_chart

            return comparison_chart(w.comparison(), title=self.title)
        from helpers.runs.choose import fitting

        make, _ = fitting(
            [w.runs[0][1]], benchmarks=w.benchmarks, title=self.title, loaded=w.loaded, **w.reading
        )
        return make()

    def _ending(self) -> str | None:
        """ "ended" or "stalled" when the watch should end now, else None."""
        if self.watching.ended():
            return "ended"
        quiet = self.watching.quiet_for(time.monotonic(), self._started)
        if self.idle_exit is not None and quiet >= self.idle_exit:
            return "stalled"
        return None

    # ---- what the output shows -------------------------------------------------------------

    def status(self) -> str:
        """Each run's newest line and the watch's state, as the line under the chart says."""
        said = []
        for w in self.watching.watched:
            newest = [x for x in self.lines if x.startswith(f"{w.name}: ")]
            said.append(newest[-1] if newest else f"{w.name}: no evaluated step yet")
        if self.state == "watching":
            said.append(f"watching: a look every {self.every:g} s")
        elif self.state == "stalled":
            ended = [w.name for w in self.watching.watched if w.ended]
            said.append(
                f"stalled: no log grew for {self.idle_exit:g} s"
                + (f" (ended: {', '.join(ended)})" if ended else "")
            )
        else:
            said.append(self.state)
        return "\n".join(said)

    def _bundle(self, whole: bool) -> dict:
        from helpers.render import export

        if self.spec is None:
            return {"text/plain": "no chart yet: no log could be read"}
        return export.mimebundle(self.spec, png=whole)

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        return self._bundle(whole=True)

    def _show(self, whole: bool) -> None:
        from IPython.display import display

        chart, status = self._bundle(whole), {"text/plain": self.status()}
        if not self._shown:
            self._shown = True
            self._chart = display(chart, raw=True, display_id=True)
            self._status = display(status, raw=True, display_id=True)
            self._said = status["text/plain"]
        elif self._chart is not None:  # None outside IPython: nothing to update
            self._chart.update(chart, raw=True)
            self._say()

    def _say(self) -> None:
        """The line under the chart, updated where it changed."""
        said = self.status()
        if self._status is not None and said != self._said:
            self._status.update({"text/plain": said}, raw=True)
            self._said = said

    # ---- the watch -------------------------------------------------------------------------

    def start(self) -> Watch:
        """Look once now (the output shows the logs as they stand), then every `every`
        seconds on the kernel's event loop."""
        from helpers.render import theme

        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            raise DataError(
                "helpers.watch",
                "a notebook's kernel (a running event loop); in a terminal, "
                "python -m helpers watch",
            ) from None
        theme.enable()
        self._look()
        ending = self._ending()
        if ending:
            self.state = ending
        self._show(whole=True)  # the first output stored whole: a saved notebook shows it
        if ending is None:
            self._task = loop.create_task(self._watch())
        return self

    async def _watch(self) -> None:
        try:
            while True:
                with contextlib.suppress(TimeoutError):  # after `every` s, or at once on stop()
                    await asyncio.wait_for(self._woken.wait(), self.every)
                stopping = self._stopping  # asked before this look began: it is the last
                changed = await asyncio.to_thread(self._look)
                ending = "stopped" if stopping else self._ending()
                if ending:
                    self.state = ending
                    break
                if changed:
                    self._show(whole=False)
                else:
                    self._say()
        except Exception as e:  # said under the chart, and raised again by `wait()`
            self.error, self.state = e, f"stopped by an error: {e}"
        try:
            self._show(whole=True)
        except Exception as e:  # the last drawing failed: `wait()` says so, never silent
            self.error = self.error or e

    def stop(self) -> None:
        """End the watch after one last look; the output keeps the latest chart, whole."""
        self._stopping = True
        self._woken.set()

    async def wait(self) -> Watch:
        """Until the watch ends; an error that ended it is raised here."""
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)
        if self.error is not None:
            raise self.error
        return self


def _at_step(spec: dict, step: int | None) -> dict:
    """The spec, its title saying the newest step drawn (the watch's chart changes under it)."""
    title = spec.get("title")
    if step is None or not title:
        return spec
    if isinstance(title, dict):
        return {**spec, "title": {**title, "text": f"{title['text']}, to step {step}"}}
    return {**spec, "title": f"{title}, to step {step}"}


def watch(*runs, **options) -> Watch:
    """Watch runs from a notebook while they train: the chart `plot` (one run) or `compare`
    (several) draws, redrawn in place as the logs grow, and under it each run's newest
    evaluated step; the kernel stays free meanwhile.

    Parameters
    ----------
    *runs : str, pathlib.Path or (str, path)
        What `python -m helpers watch` takes: a path (named after its file), NAME=PATH, or a
        (name, path) pair.
    baseline : str, optional
        With several runs: the run the others are compared with (the first by default).
    every : float
        Seconds between looks (15).
    idle_exit : float, optional
        End after this many seconds with no log growing (by default the watch ends only when
        every run's log says it ended, or on `.stop()`).
    benchmarks : list of str, optional
        Only these benchmarks.
    title : str, optional
        The chart's title.
    mapping, problems, step_pattern : optional
        As `plot` reads them: `--map`, `--problems`, `--step-from-path`.

    Returns
    -------
    Watch
        Already shown in the cell's output; `await w.wait()` waits for its end, `w.stop()`
        ends it, `w.lines` is what it said.
    """
    return Watch(*runs, **options).start()
