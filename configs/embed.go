// Package configs embeds the project's default configuration files, so the binary runs with no
// files beside it. The YAML files here are also the documented examples.
package configs

import "embed"

// Files holds the cards, rulesets, hardware profiles and daemon configurations (sim.yaml).
//
//go:embed cards/*.yaml rules/*.yaml hw/*.yaml *.yaml
var Files embed.FS

// ExampleCard is the path of the example card inside Files.
const ExampleCard = "cards/example.yaml"

// Rules returns the named ruleset file, e.g. "siamese" -> rules/siamese.yaml.
func Rules(name string) ([]byte, error) { return Files.ReadFile("rules/" + name + ".yaml") }
