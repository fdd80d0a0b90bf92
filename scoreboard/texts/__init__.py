"""The words: languages and translations (gettext catalogs in locale/), the hold times as the
screens name them, and the one catalog of hints and fault messages every face shows."""
