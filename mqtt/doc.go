// Package mqtt puts the table on MQTT and takes the players' commands from it: the topic
// schema (docs/mqtt.md), the public and private payloads, a publisher that never blocks the
// table loop, the command intake with its validation, the embedded broker (mochi-mqtt) with
// its users and ACL, and what an external Mosquitto needs to enforce the same ACL.
//
// Only public payloads (redacted here) reach a public topic: a drawn, dealt or moved tile
// never does, nor a question about a concealed tile.
package mqtt
