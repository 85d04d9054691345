"""The layout engine: a card kind is data, an ordered list of elements bound to the card's
fields, and this package draws it. Games and a designer's own kinds say what a card shows
in their layouts file (`[kinds.NAME]`); nothing here knows any game.

- schema.py: the element types and their fields (msgspec structs, validated on load; the
  reference in docs/layout-reference.md is generated from them);
- kinds.py: a layouts file's kinds read, `extends` resolved, errors named;
- bind.py: values bound to a card's fields ("{name}", "{value:02}"), `when` conditions,
  colours by name;
- markup.py: text with **bold**, *italic* and :icon: runs, measured and wrapped;
- elements.py: what each element draws;
- face.py: a card's face from its kind and fields, and its digest (resolved elements and
  picture bytes: never drawn twice);
- components.py: a game's cards, backs and pages from [components] and [backs];
- pictures.py: which card gets which of the designer's pictures, in which art box."""
