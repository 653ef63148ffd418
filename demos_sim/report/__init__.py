"""Reports: one run's HTML page and Markdown summary with plots (:mod:`.build`), and the
designer's analyses report from their sections (:mod:`.analyses`); the commands that write
them (:mod:`.cli`)."""
