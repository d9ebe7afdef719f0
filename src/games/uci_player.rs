//! External UCI engines as players (subprocesses, arbitrated by fairylab).
