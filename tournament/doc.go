// Package tournament holds what a tournament's tables and its desk share: the event file
// (tournament/event), the position movements between rounds (tournament/movement), the
// messages a table and the desk exchange (tournament/wire), the table's outbox and its link
// to the NATS cluster (tournament/link). The desk itself is package desk.
package tournament
