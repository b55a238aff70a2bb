//! SIM: indel-normalised edit similarity (python-Levenshtein's `ratio`) over code points.
