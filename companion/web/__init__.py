"""`companion serve`: the phone table: Lugvanion's bag draw and every game's scoring on
the players' phones, and the history each game played leaves.

store.py keeps the table (SQLite) and is where a draw happens; app.py is the HTTP API and
event stream; page/ is the phone page; network.py finds the LAN address; qr.py prints the
link as a QR code; limits.py bounds what slow or idle clients may cost."""
