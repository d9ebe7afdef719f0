//! PGN export and import of game records.
