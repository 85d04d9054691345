"""Pure game logic: scoring, odds, draws and rule checks. No files, terminals, PDFs or HTTP."""
