// Package setup is the table owner's side of the display port: the owner's password, made on
// the daemon's first start and kept in the data directory; sessions opened by logging in on
// the set-up page (/setup); the table's settings saved from that page (rules, card, names),
// which win over the configuration file's; and the seats handed to phones by a one-time code
// shown on the table display, taken back by giving the seat a new MQTT password.
//
// The daemon wires it (what the table plays, the broker's passwords); everything here that
// can be is pure and takes its time from an injected clock.
package setup
