//! `--mode text2world`: the official Text2World scorer's values, quirks included.
