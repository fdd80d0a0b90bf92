"""The setup screen at the table: the draft (model.py), kept in `setup.json` (store.py) before
it is shown, and the next match's settings. The app asks it what a button means while it is
open; everything it keeps is on disk before the screens show it, so a power cut mid-setup
comes back to the same screen with the same choices.
"""

from dataclasses import replace

from scoreboard.core.settings import MatchSettings, SettingsError, from_config
from scoreboard.store.setup_store import Kept, SetupStore
from scoreboard.table.setup import model


class SetupDesk:
    def __init__(self, state_dir, config, *, warn=print) -> None:
        self.config = config
        self.warn = warn
        self.store = SetupStore(state_dir, warn=warn)
        kept = self.store.load()
        self.draft: model.Draft | None = None
        if kept.draft is not None:
            try:
                self.draft = model.Draft.from_dict(kept.draft, self.roster())
            except (KeyError, TypeError, ValueError, SettingsError) as exc:
                warn(f"setup: the open setup could not be read back ({exc}); it starts again")

    # -- what it knows -------------------------------------------------------------------------
    @property
    def kept(self) -> Kept:
        return self.store.kept

    @property
    def is_open(self) -> bool:
        return self.draft is not None

    def roster(self) -> tuple[str, ...]:
        """The names the setup offers (store/setup_store.py `Kept.offered`)."""
        return self.kept.offered(self.config.match.roster, self.last().players)

    def last(self) -> MatchSettings:
        """The settings the last match started with (the config's before any)."""
        return self.kept.last or from_config(self.config)

    def next_settings(self) -> MatchSettings:
        """What the next match starts with: settings sent for it, else the last ones."""
        return self.kept.pending or self.last()

    def view(self) -> dict | None:
        return self.draft.view() if self.draft else None

    # -- changes (each durable before it is shown) ---------------------------------------------
    def open(self) -> None:
        self._keep(model.open_draft(self.next_settings(), self.roster()))

    def press(self, key: str, *, held: bool = False) -> str | None:
        """A button while the setup is open: what it asks of the app (model.START, a hint key)
        or None; model.CLOSE has closed the setup already."""
        draft, asks = model.press(self.draft, key, held=held)
        if draft.settings.assign and draft.settings.players != self.draft.settings.players:
            # Other players than the club's assign named: not that tournament game any more.
            draft = replace(draft, settings=replace(draft.settings, assign=""))
        if asks == model.CLOSE:
            self.close()
        elif draft != self.draft:
            self._keep(draft)
        return asks

    def show(self, settings: MatchSettings) -> None:
        """Settings sent while the setup is open: on the screen, on Start."""
        self._keep(model.open_draft(settings, self.roster()))

    def close(self) -> None:
        self.draft = None
        self.store.save(replace(self.kept, draft=None))

    def started(self, settings: MatchSettings) -> None:
        """A match starts with `settings`: they are the last ones, their names the most recent."""
        self.draft = None
        # The club's assign tags this match only: the next starts from these without it.
        last = replace(settings, assign="")
        kept = replace(self.kept.used(*settings.players), last=last, pending=None, draft=None)
        self.store.save(kept)

    def set_roster(self, names: tuple[str, ...]) -> None:
        """The club's players from a phone (store.roster_names checked them); an open setup
        screen offers them at once."""
        self.store.save(replace(self.kept, roster=names))
        if self.draft is not None:
            self._keep(replace(self.draft, roster=self.roster()))

    def wait(self, settings: MatchSettings | None) -> None:
        """`settings` are for the next match (None: nothing waits)."""
        self.store.save(replace(self.kept, pending=settings))

    def _keep(self, draft: model.Draft) -> None:
        self.draft = draft
        self.store.save(replace(self.kept, draft=draft.to_dict()))
