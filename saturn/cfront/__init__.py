"""Front end: source files → preprocessed text → pycparser ASTs.

In: paths, a compile_commands.json, preprocessor flags. Out: `SourceFile` (path + flags) from
`discover`, `Preprocessed` text from `preprocess`, a `TranslationUnit` (AST + text hash) from
`parse`. Failures are `FrontEndError` carrying a compiler-style `file:line:col: error: ...`.
"""
