package card

// Table-driven tests over configs/cards/example.yaml, category by category: racks that make a
// hand and racks that must not (a joker in a pair or single, a concealed hand with an exposure,
// wrong suits, a broken run, an x: odd hand on an even base, ...). Every case names the exact
// hands the rack must match, so a wrong answer either way fails.

import (
	"slices"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
)

func loadExampleCard(t *testing.T) *Card {
	t.Helper()
	c, err := Load(oracleCardPath)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// exRack builds a rack from concealed tiles and exposures in tile notation.
func exRack(t *testing.T, concealed string, exposed ...string) Rack {
	t.Helper()
	fs, err := tile.ParseList(concealed)
	if err != nil {
		t.Fatalf("concealed %q: %v", concealed, err)
	}
	var r Rack
	if r.Concealed, err = tile.CountsOf(fs); err != nil {
		t.Fatal(err)
	}
	for _, e := range exposed {
		es, err := tile.ParseList(e)
		if err != nil {
			t.Fatalf("exposure %q: %v", e, err)
		}
		r.Exposed = append(r.Exposed, Exposure(es))
	}
	return r
}

func TestExampleCardLoads(t *testing.T) {
	c := loadExampleCard(t)
	if len(c.Hands) < 55 {
		t.Errorf("example card has %d hands, want at least 55", len(c.Hands))
	}
	sections := map[string]int{}
	concealed, sp := 0, 0
	for _, h := range c.Hands {
		sections[h.Section]++
		if h.Value < 25 || h.Value > 75 {
			t.Errorf("hand %s: value %d outside 25..75", h.ID, h.Value)
		}
		if h.Note == "" {
			t.Errorf("hand %s: no note", h.ID)
		}
		if h.Concealed {
			concealed++
		}
		if h.Section == "Singles And Pairs" && (!h.Concealed || !h.SinglesAndPairs) {
			t.Errorf("hand %s: a singles-and-pairs hand must be concealed and hold only singles and pairs", h.ID)
		}
		if h.SinglesAndPairs {
			sp++
		}
	}
	for _, s := range []string{"2026", "2468", "Any Like Numbers", "Addition Hands", "Quints", "Consecutive Run", "13579", "Winds - Dragons", "369", "Singles And Pairs"} {
		if sections[s] == 0 {
			t.Errorf("no hand in section %q", s)
		}
	}
	if concealed < 12 || sp < 5 {
		t.Errorf("%d concealed and %d singles-and-pairs hands, want more", concealed, sp)
	}
	// Concealed hands are worth more than the exposed hands of their section.
	for _, h := range c.Hands {
		if !h.Concealed {
			continue
		}
		for _, o := range c.Hands {
			if o.Section == h.Section && !o.Concealed && o.Value >= h.Value {
				t.Errorf("concealed %s (%d) is not worth more than exposed %s (%d)", h.ID, h.Value, o.ID, o.Value)
			}
		}
	}
}

type exampleCase struct {
	name      string // "category/case"
	concealed string
	exposed   []string
	want      []string // every hand the rack must match, in card order; nil: none
	jokerless bool     // expected when want is not empty
}

var exampleCases = []exampleCase{
	// 2026: "FFF 2026a 2026b DDDa", "NN|EE|WW|SS 22a 000 222b 6666c", "DDa 2026a 222b 666b FF",
	// "NEWS 2026a 2026b 66c" (C), ...
	{name: "2026/two years and the first suit's dragon", concealed: "F F F 2B WD 2B 6B 2C WD 2C 6C GD GD GD", want: []string{"2026-1"}, jokerless: true},
	{name: "2026/jokers in the flower pung and the dragon pung", concealed: "F J J 2B WD 2B 6B 2C WD 2C 6C GD J GD", want: []string{"2026-1"}},
	{name: "2026/joker in the year row rejected", concealed: "F F F 2B WD 2B J 2C WD 2C 6C GD GD GD"},
	{name: "2026/dragon of neither year suit rejected", concealed: "F F F 2B WD 2B 6B 2C WD 2C 6C WD WD WD"},
	{name: "2026/year and its dragon pair", concealed: "RD RD 2C WD 2C 6C 2D 2D 2D 6D 6D 6D F F", want: []string{"2026-3"}, jokerless: true},
	{name: "2026/joker in the dragon pair rejected", concealed: "RD J 2C WD 2C 6C 2D 2D 2D 6D 6D 6D F F"},
	{name: "2026/pungs split over two suits rejected", concealed: "RD RD 2C WD 2C 6C 2D 2D 2D 6B 6B 6B F F"},
	{name: "2026/pung of soaps with jokers, any wind pair", concealed: "W W 2D 2D WD J J 2B 2B 2B 6C 6C 6C J", want: []string{"2026-2"}},
	{name: "2026/soap pair instead of pung rejected", concealed: "W W 2D 2D WD WD 2B 2B 2B 6C 6C 6C 6C 6D"},
	{name: "2026/concealed year hand", concealed: "N E W S 2B WD 2B 6B 2C WD 2C 6C 6D 6D", want: []string{"2026-c"}, jokerless: true},
	{name: "2026/concealed year hand with an exposure rejected", concealed: "2B WD 2B 6B 2C WD 2C 6C 6D 6D", exposed: []string{"N E W S"}},
	{name: "2026/concealed year hand, third suit pair in a year suit rejected", concealed: "N E W S 2B WD 2B 6B 2C WD 2C 6C 6C 6C"},

	// 2468: "222a 44a 666a 88a DDDDa", "FF 2222a 44b 66b 8888c", "FFF 22a 44a 666a|b 8888a|b",
	// "FF XXXX0a XXXX0b XXXX0c" (x: even), "2468a 2222b 4444b 66b" (C).
	{name: "2468/one suit with its dragon kong", concealed: "2C 2C 2C 4C 4C 6C 6C 6C 8C 8C RD RD RD RD", want: []string{"2468-1"}, jokerless: true},
	{name: "2468/one suit with another suit's dragon rejected", concealed: "2C 2C 2C 4C 4C 6C 6C 6C 8C 8C GD GD GD GD"},
	{name: "2468/three suits", concealed: "F F 2B 2B 2B 2B 4C 4C 6C 6C 8D 8D 8D 8D", want: []string{"2468-2"}, jokerless: true},
	{name: "2468/pairs of the middle suit split over two suits rejected", concealed: "F F 2B 2B 2B 2B 4C 4C 6D 6D 8D 8D 8D 8D"},
	{name: "2468/joker in the flower pair rejected", concealed: "F J 2B 2B 2B 2B 4C 4C 6C 6C 8D 8D 8D 8D"},
	{name: "2468/one-suit alternative", concealed: "F F F 2D 2D 4D 4D 6D 6D 6D 8D 8D 8D 8D", want: []string{"2468-3"}, jokerless: true},
	{name: "2468/two-suit alternative", concealed: "F F F 2D 2D 4D 4D 6B 6B 6B 8B 8B 8B 8B", want: []string{"2468-3"}, jokerless: true},
	{name: "2468/three suits where two are allowed rejected", concealed: "F F F 2D 2D 4D 4D 6B 6B 6B 8C 8C 8C 8C"},
	{name: "2468/x even: like 8s", concealed: "F F 8B 8B 8B 8B 8C 8C 8C J 8D 8D 8D 8D", want: []string{"2468-5"}},
	{name: "2468/x even: like 5s rejected", concealed: "F F 5B 5B 5B 5B 5C 5C 5C 5C 5D 5D 5D 5D"},
	{name: "2468/concealed hand", concealed: "2D 4D 6D 8D 2C 2C 2C 2C 4C 4C J J 6C 6C", want: []string{"2468-6"}},
	{name: "2468/concealed hand with its kong exposed rejected", concealed: "2D 4D 6D 8D 4C 4C 4C 4C 6C 6C", exposed: []string{"2C 2C 2C 2C"}},

	// Any Like Numbers: "FFFF XXX0a XXX0b XXXX0c", "XXX0a DDa XXX0b DDb XXXX0c",
	// "XXXX0a XXXX0b FFF XXX0c" (x: odd), any wind "XXXX0a XXXX0b NNN XXX0c", ...
	{name: "like numbers/like 7s", concealed: "F F F F 7B 7B 7B 7C 7C 7C 7D 7D 7D 7D", want: []string{"Any Like Numbers-1"}, jokerless: true},
	{name: "like numbers/like 7s with jokers", concealed: "F F F F 7B 7B J 7C 7C 7C 7D J 7D 7D", want: []string{"Any Like Numbers-1"}},
	{name: "like numbers/unlike numbers rejected", concealed: "F F F F 7B 7B 7B 7C 7C 7C 6D 6D 6D 6D"},
	{name: "like numbers/dragons of the pung suits", concealed: "5B 5B 5B GD GD 5C 5C 5C RD RD 5D 5D 5D 5D", want: []string{"Any Like Numbers-2"}, jokerless: true},
	{name: "like numbers/dragon of the kong suit rejected", concealed: "5B 5B 5B 5B GD GD 5C 5C 5C RD RD 5D 5D 5D"},
	{name: "like numbers/x odd: like 3s", concealed: "3B 3B 3B 3B 3C 3C 3C 3C F F F 3D 3D 3D", want: []string{"Any Like Numbers-3"}, jokerless: true},
	{name: "like numbers/x odd: even base rejected", concealed: "4B 4B 4B 4B 4C 4C 4C 4C F F F 4D 4D 4D"},
	{name: "like numbers/any wind: east", concealed: "9B 9B 9B 9B 9C 9C 9C 9C E E E 9D 9D 9D", want: []string{"Any Like Numbers-4"}, jokerless: true},
	{name: "like numbers/any wind: west, jokers", concealed: "9B 9B J 9B 9C 9C 9C 9C W W J 9D 9D 9D", want: []string{"Any Like Numbers-4"}},
	{name: "like numbers/mixed winds rejected", concealed: "9B 9B 9B 9B 9C 9C 9C 9C E W W 9D 9D 9D"},

	// Addition Hands: "333a 444a|b FFFF 7777a|c", "444a 555b 9999c FFFF", "111a 111b 2222c FFFF",
	// "279a 222b 777b 999b FF" (C).
	{name: "addition/3+4=7 one suit", concealed: "3B 3B 3B 4B 4B 4B F F F F 7B 7B 7B 7B", want: []string{"Addition Hands-1"}, jokerless: true},
	{name: "addition/3+4=7 three suits", concealed: "3B 3B 3B 4C 4C 4C F F F F 7D 7D 7D 7D", want: []string{"Addition Hands-1"}, jokerless: true},
	{name: "addition/3+4=7 in two suits rejected", concealed: "3B 3B 3B 4B 4B 4B F F F F 7C 7C 7C 7C"},
	{name: "addition/4+5=9", concealed: "4B 4B 4B 5C 5C 5C 9D 9D 9D 9D F F F F", want: []string{"Addition Hands-2"}, jokerless: true},
	{name: "addition/4+5=8 rejected", concealed: "4B 4B 4B 5C 5C 5C 8D 8D 8D 8D F F F F"},
	{name: "addition/1+1=2 with exposures", concealed: "2D 2D 2D J F F F F", exposed: []string{"1B J 1B", "1C 1C 1C"}, want: []string{"Addition Hands-4"}},
	{name: "addition/concealed 2+7=9", concealed: "2B 7B 9B 2C 2C J 7C 7C 7C 9C 9C 9C F F", want: []string{"Addition Hands-5"}},
	{name: "addition/concealed, joker in the row rejected", concealed: "2B J 9B 2C 2C 2C 7C 7C 7C 9C 9C 9C F F"},
	{name: "addition/concealed with an exposure rejected", concealed: "2B 7B 9B 7C 7C 7C 9C 9C 9C F F", exposed: []string{"2C 2C 2C"}},

	// Quints: "FFFFF XXXXX0a XXXX1b", any wind "NNNNN XXXXX0a XXXX0b", "DDDDDa 11111b 2222c",
	// "FF XXXXX0a XX1a XXXXX2a".
	{name: "quints/flower quint and consecutive numbers", concealed: "F F F F F 6B 6B 6B 6B J 7C 7C 7C 7C", want: []string{"Quints-1"}},
	{name: "quints/numbers not consecutive rejected", concealed: "F F F F F 6B 6B 6B 6B J 8C 8C 8C 8C"},
	{name: "quints/any wind quint", concealed: "N N N N J 3B 3B 3B 3B J 3C 3C 3C 3C", want: []string{"Quints-2"}},
	{name: "quints/dragon quint", concealed: "GD GD GD GD J 1C 1C 1C 1C J 2D 2D 2D 2D", want: []string{"Quints-3"}},
	{name: "quints/dragon of the 1s' suit rejected", concealed: "RD RD RD RD J 1C 1C 1C 1C J 2D 2D 2D 2D"},
	{name: "quints/one suit, joker in the pair rejected", concealed: "F F 1D 1D 1D 1D J 2D J 3D 3D 3D 3D J"},
	{name: "quints/one suit", concealed: "F F 1D 1D 1D 1D J 2D 2D 3D 3D 3D 3D J", want: []string{"Quints-4"}},
	{name: "quints/exposed quint", concealed: "F F F F F 7C 7C 7C 7C", exposed: []string{"6B J 6B 6B 6B"}, want: []string{"Quints-1"}},

	// Consecutive Run: "FF XX0a XXX1a|b XXXX2a|c XXX3a", "X0X1X2X3X4a XXX0b XXX4b FFF",
	// "XXX0a XXXX1a XXX2a FFFF" (x: 1..6), "XX0a XX1a XXX2a XXX2b XXXX2c" (C), ...
	{name: "run/one suit", concealed: "F F 4C 4C 5C 5C 5C 6C 6C 6C 6C 7C 7C 7C", want: []string{"Consecutive Run-1"}, jokerless: true},
	{name: "run/three suits", concealed: "F F 4C 4C 5D 5D 5D 6B 6B 6B 6B 7C 7C 7C", want: []string{"Consecutive Run-1"}, jokerless: true},
	{name: "run/skipped number rejected", concealed: "F F 4C 4C 5C 5C 5C 6C 6C 6C 6C 8C 8C 8C"},
	{name: "run/run of five singles", concealed: "3B 4B 5B 6B 7B 3C 3C 3C 7C 7C 7C F F F", want: []string{"Consecutive Run-2"}, jokerless: true},
	{name: "run/gap in the run of singles rejected", concealed: "3B 4B 5B 6B 8B 3C 3C 3C 7C 7C 7C F F F"},
	{name: "run/joker in the run of singles rejected", concealed: "3B 4B J 6B 7B 3C 3C 3C 7C 7C 7C F F F"},
	{name: "run/x list: base 6 allowed", concealed: "6D 6D 6D 7D 7D 7D 7D 8D 8D 8D F F F F", want: []string{"Consecutive Run-5"}, jokerless: true},
	{name: "run/x list: base 7 rejected", concealed: "7D 7D 7D 8D 8D 8D 8D 9D 9D 9D F F F F"},
	{name: "run/concealed", concealed: "1B 1B 2B 2B 3B 3B 3B 3C 3C 3C 3D 3D 3D 3D", want: []string{"Consecutive Run-6"}, jokerless: true},
	{name: "run/concealed with an exposure rejected", concealed: "1B 1B 2B 2B 3B 3B 3B 3D 3D 3D 3D", exposed: []string{"3C 3C 3C"}},

	// 13579: "111a 33a 5555a 77a 999a", "111a 33a 555b 77b 9999c", "111a DDDa 333b DDDb 55c",
	// "XXX0a XXX2a XXXX4a FFFF" (x: odd), "111a 3a 5a 7a 999a 13579b" (C).
	{name: "13579/one suit", concealed: "1B 1B 1B 3B 3B 5B 5B 5B 5B 7B 7B 9B 9B 9B", want: []string{"13579-1"}, jokerless: true},
	{name: "13579/one suit with jokers in the pungs and kong", concealed: "1B J 1B 3B 3B 5B 5B J 5B 7B 7B 9B J 9B", want: []string{"13579-1"}},
	{name: "13579/joker in a pair rejected", concealed: "1B 1B 1B 3B J 5B 5B 5B 5B 7B 7B 9B 9B 9B"},
	{name: "13579/one-suit hand in two suits rejected", concealed: "1B 1B 1B 3B 3B 5B 5B 5B 5B 7B 7B 9C 9C 9C"},
	{name: "13579/three suits", concealed: "1B 1B 1B 3B 3B 5C 5C 5C 7C 7C 9D 9D 9D 9D", want: []string{"13579-2"}, jokerless: true},
	{name: "13579/pungs with their dragons", concealed: "1B 1B 1B GD GD GD 3C 3C 3C RD RD RD 5D 5D", want: []string{"13579-4"}, jokerless: true},
	{name: "13579/x odd: 3 5 7", concealed: "3D 3D 3D 5D 5D 5D 7D 7D 7D 7D F F F F", want: []string{"13579-5"}, jokerless: true},
	{name: "13579/x odd: even base 2 4 6 rejected", concealed: "2D 2D 2D 4D 4D 4D 6D 6D 6D 6D F F F F"},
	{name: "13579/concealed", concealed: "1C 1C 1C 3C 5C 7C 9C 9C 9C 1B 3B 5B 7B 9B", want: []string{"13579-6"}, jokerless: true},

	// Winds - Dragons: "NNNN SSSS DDDa DDDb", "EEEE WWWW DDa DDb DDc", "FFF NEWS DDDDa DDDb",
	// "NNN EE WWW SS XXXX0a", any wind "FF ZZZZ DDDDa DDDDb", "NEWS NEWS DDDa DDDb" (C),
	// "FF RRRR NEWS GGGG", odd kongs with N/S or even with E/W.
	{name: "winds dragons/north south kongs", concealed: "N N N N S S S S RD RD RD WD WD WD", want: []string{"Winds - Dragons-1"}, jokerless: true},
	{name: "winds dragons/every dragon paired", concealed: "E E E E W W W W RD RD GD GD WD WD", want: []string{"Winds - Dragons-2"}, jokerless: true},
	{name: "winds dragons/joker in a dragon pair rejected", concealed: "E E E E W W W W RD RD GD J WD WD"},
	{name: "winds dragons/every wind and a number kong", concealed: "N N N E E W W J S S 5B 5B J 5B", want: []string{"Winds - Dragons-4"}},
	{name: "winds dragons/joker in a wind pair rejected", concealed: "N N N E J W W W S S 5B 5B 5B 5B"},
	{name: "winds dragons/any wind kong: south", concealed: "F F S S S S GD GD GD GD RD RD J J", want: []string{"Winds - Dragons-5"}},
	{name: "winds dragons/flower pung and dragons (or, the joker a green, red and green kongs)", concealed: "F F J N E W S RD RD RD RD GD GD GD", want: []string{"Winds - Dragons-3", "Winds - Dragons-8"}},
	{name: "winds dragons/concealed", concealed: "N E W S N E W S GD GD GD WD WD WD", want: []string{"Winds - Dragons-7"}, jokerless: true},
	{name: "winds dragons/concealed with an exposure rejected", concealed: "N E W S N E W S WD WD WD", exposed: []string{"GD GD GD"}},
	{name: "winds dragons/red and green kongs", concealed: "F F RD RD RD RD N E W S GD GD GD GD", want: []string{"Winds - Dragons-8"}, jokerless: true},
	{name: "winds dragons/soap kong for red rejected", concealed: "F F WD WD WD WD N E W S GD GD GD GD"},
	{name: "winds dragons/odd kongs with north and south", concealed: "N N N 9B 9B 9B 9B 9D 9D J 9D S S S", want: []string{"Winds - Dragons-9"}},
	{name: "winds dragons/even kongs with east and west", concealed: "E E E 2B 2B 2B 2B 2C 2C 2C 2C W W W", want: []string{"Winds - Dragons-9"}, jokerless: true},
	{name: "winds dragons/odd kongs with east and west rejected", concealed: "E E E 3B 3B 3B 3B 3C 3C 3C 3C W W W"},
	{name: "winds dragons/any wind pung and every dragon", concealed: "W W J GD GD GD RD RD RD WD WD WD F F", want: []string{"Winds - Dragons-6"}},
	{name: "2468/choice: pair of 8 with the 2s", concealed: "F F 2B 2B 2B 2B 8B 8B 6C 6C 6C J RD RD", want: []string{"2468-7"}},
	{name: "2468/choice: pair of 6 is no choice", concealed: "F F 2B 2B 2B 2B 6B 6B 6C 6C 6C J RD RD"},

	// 369: "33a 666a 9999a 666b FF", "333a 6666b 9999c DDDa", "FF 333a 666a 999a DDDa",
	// "33a 66a 99a 3333b 6666b" (C).
	{name: "369/three suits with the first suit's dragon", concealed: "3B 3B 3B 6C 6C 6C 6C 9D 9D 9D 9D GD GD GD", want: []string{"369-2"}, jokerless: true},
	{name: "369/three-suit hand in one suit rejected", concealed: "3B 3B 3B 6B 6B 6B 6B 9B 9B 9B 9B GD GD GD"},
	{name: "369/one suit with its dragon", concealed: "F F 3D 3D 3D 6D 6D 6D 9D 9D 9D WD WD WD", want: []string{"369-4"}, jokerless: true},
	{name: "369/one suit, soap pung with jokers", concealed: "F F 3D 3D 3D 6D 6D 6D 9D 9D 9D WD J J", want: []string{"369-4"}},
	{name: "369/concealed", concealed: "3B 3B 6B 6B 9B 9B 3C 3C 3C 3C 6C 6C 6C 6C", want: []string{"369-5"}, jokerless: true},
	{name: "369/concealed with its kong exposed rejected", concealed: "3B 3B 6B 6B 9B 9B 6C 6C 6C 6C", exposed: []string{"3C 3C 3C 3C"}},

	// Singles And Pairs (all concealed).
	{name: "singles pairs/winds and four consecutive pairs", concealed: "N N S S 4C 4C 5C 5C 6C 6C 7C 7C F F", want: []string{"Singles And Pairs-1"}, jokerless: true},
	{name: "singles pairs/joker in a wind pair rejected", concealed: "N N S J 4C 4C 5C 5C 6C 6C 7C 7C F F"},
	{name: "singles pairs/pairs not consecutive rejected", concealed: "N N S S 4C 4C 5C 5C 6C 6C 8C 8C F F"},
	{name: "singles pairs/with an exposure rejected", concealed: "4C 4C 5C 5C 6C 6C 7C 7C F F", exposed: []string{"N N", "S S"}},
	{name: "singles pairs/odds in two suits", concealed: "1C 3C 5C 7C 9C 1D 3D 5D 7D 9D N N S S", want: []string{"Singles And Pairs-3"}, jokerless: true},
	{name: "singles pairs/odds in one suit twice rejected", concealed: "1C 3C 5C 7C 9C 1C 3C 5C 7C 9C N N S S"},
	{name: "singles pairs/evens with the first suit's dragon", concealed: "2B 4B 6B 8B 2C 4C 6C 8C 2D 2D 8D 8D GD GD", want: []string{"Singles And Pairs-4"}, jokerless: true},
	{name: "singles pairs/same run in two suits", concealed: "1B 1B 2B 2B 3B 3B 1D 1D 2D 2D 3D 3D F F", want: []string{"Singles And Pairs-2"}, jokerless: true},
	{name: "singles pairs/different runs in two suits rejected", concealed: "1B 1B 2B 2B 3B 3B 2D 2D 3D 3D 4D 4D F F"},
	{name: "singles pairs/flower single and 369 in three suits", concealed: "F N E W S 3B 6B 9B 3C 6C 9C 3D 6D 9D", want: []string{"Singles And Pairs-5"}, jokerless: true},
	{name: "singles pairs/joker as the flower single rejected", concealed: "J N E W S 3B 6B 9B 3C 6C 9C 3D 6D 9D"},
	{name: "singles pairs/two years and the third suit's dragon", concealed: "N N S S 2B WD 2B 6B 2C WD 2C 6C WD WD", want: []string{"Singles And Pairs-6"}, jokerless: true},

	// Wrong counts.
	{name: "count/13 tiles match nothing", concealed: "F F 3B 3B 3B 3B 4B 4B 4B 4B 7B 7B 7B"},
	{name: "count/15 tiles match nothing", concealed: "F F F 3B 3B 3B 3B 4B 4B 4B 4B 7B 7B 7B 7B"},
}

func TestExampleCardMatch(t *testing.T) {
	c := loadExampleCard(t)
	oc := loadOracle(t, oracleCardPath)
	for _, tc := range exampleCases {
		t.Run(tc.name, func(t *testing.T) {
			r := exRack(t, tc.concealed, tc.exposed...)
			var got []string
			for _, m := range c.Match(r) {
				got = append(got, m.HandID)
				if m.Jokerless != tc.jokerless {
					t.Errorf("%s: jokerless = %v, want %v", m.HandID, m.Jokerless, tc.jokerless)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Match(%s) = %v, want %v", oRackString(r), got, tc.want)
			}
			// The table and the brute-force oracle must agree, so a wrong table entry shows too.
			if want, _ := oc.oracleMatch(r); !slices.Equal(want, tc.want) {
				t.Errorf("oracle matches %v, the table says %v", want, tc.want)
			}
		})
	}
}

func TestExampleCardPossible(t *testing.T) {
	c := loadExampleCard(t)
	cases := []struct {
		name    string
		exposed []string
		want    []string
	}{
		{"winds/north kong", []string{"N N N N"}, []string{"Winds - Dragons-1", "Winds - Dragons-5"}},
		{"winds/north kong with jokers", []string{"N J J N"}, []string{"Winds - Dragons-1", "Winds - Dragons-5"}},
		{"winds/north pung and odd kong", []string{"N N N", "7C 7C J 7C"}, []string{"Any Like Numbers-4", "Winds - Dragons-4", "Winds - Dragons-9"}},
		{"winds/north pung and even kong: not odd", []string{"N N N", "8C 8C J 8C"}, []string{"Any Like Numbers-4", "Winds - Dragons-4"}},
		{"winds/east pung and even kong", []string{"E J E", "8C 8C J 8C"}, []string{"Any Like Numbers-4", "Winds - Dragons-9"}},
		{"dragons/red and green kongs", []string{"RD RD RD J", "GD J GD GD"}, []string{"Winds - Dragons-5", "Winds - Dragons-8"}},
		{"dragons/soap and green kongs: no literal red", []string{"WD WD WD J", "GD J GD GD"}, []string{"Winds - Dragons-5"}},
		{"winds/wind pair, as after Mah Jongg", []string{"W W"}, []string{"2026-2"}},
		{"winds/east pair", []string{"E E"}, []string{"2026-2", "Winds - Dragons-4"}},
		{"winds/joker in a wind pair fits nothing", []string{"W J"}, nil},
		{"flowers/flower pung", []string{"F F F"}, []string{"2026-1", "2026-5", "2468-3", "Any Like Numbers-3", "Consecutive Run-2", "Winds - Dragons-3"}},
		{"flowers/flower pung with jokers", []string{"F J J"}, []string{"2026-1", "2026-5", "2468-3", "Any Like Numbers-3", "Consecutive Run-2", "Winds - Dragons-3"}},
		{"flowers/flower quint", []string{"F F J F F"}, []string{"Quints-1"}},
		{"quints/quint of 3s", []string{"3B 3B J 3B 3B"}, []string{"Quints-1", "Quints-2", "Quints-4"}},
		{"quints/quint of 1s and kong of 2s", []string{"1C 1C 1C J 1C", "2D 2D J J"}, []string{"Quints-1", "Quints-3"}},
		{"like numbers/three like kongs in three suits", []string{"2B 2B 2B 2B", "2C 2C J 2C", "2D 2D 2D 2D"}, []string{"2468-5"}},
		{"like numbers/odd kongs", []string{"5B 5B 5B 5B", "5C J 5C 5C"}, []string{"Any Like Numbers-3", "Any Like Numbers-4", "Winds - Dragons-9"}},
		{"run/kongs of 3 and 4 in one suit", []string{"3B 3B 3B 3B", "4B 4B 4B 4B"}, []string{"Consecutive Run-4", "Consecutive Run-7"}},
		{"addition/pungs of 3 and 4 in one suit", []string{"3B 3B J", "4B J 4B"}, []string{"Addition Hands-1", "Consecutive Run-4"}},
		{"run/kongs of 2 and 3: X is at least 1, so X+2 is never 2", []string{"2B 2B 2B 2B", "3B 3B 3B 3B"}, []string{"Consecutive Run-7"}},
		{"dead/kong where the card has pungs", []string{"2B 2B 2B 2B", "9C 9C 9C 9C"}, nil},
		{"dead/two exposures the same group", []string{"GD GD GD GD", "GD GD GD GD"}, nil},
		{"dead/a sextet", []string{"F F F F F F"}, nil},
		{"dead/mixed pung", []string{"3B 3B 4B"}, nil},
	}
	oc := loadOracle(t, oracleCardPath)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := exRack(t, "", tc.exposed...)
			var got []string
			for _, h := range c.Possible(r.Exposed) {
				got = append(got, h.ID)
				if h.Concealed {
					t.Errorf("concealed hand %s still possible with exposures", h.ID)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Possible(%s) = %v, want %v", strings.Join(tc.exposed, " | "), got, tc.want)
			}
			if want := oc.oraclePossible(r.Exposed); !slices.Equal(want, tc.want) {
				t.Errorf("oracle says %v, the table says %v", want, tc.want)
			}
		})
	}
	t.Run("no exposures/every hand possible", func(t *testing.T) {
		if got := len(c.Possible(nil)); got != len(c.Hands) {
			t.Errorf("Possible(nil) has %d hands, want all %d", got, len(c.Hands))
		}
	})
}

func TestExampleCardAway(t *testing.T) {
	c := loadExampleCard(t)
	cases := []struct {
		name      string
		concealed string
		exposed   []string
		hand      string
		away      int // -1: the hand must be absent (ruled out)
	}{
		{"2026/complete", "F F F 2B WD 2B 6B 2C WD 2C 6C GD GD GD", nil, "2026-1", 0},
		{"2026/one short", "F F F 2B WD 2B 6B 2C WD 2C 6C GD GD", nil, "2026-1", 1},
		{"2026/a joker fills the dragon pung", "F F F 2B WD 2B 6B 2C WD 2C 6C GD GD J", nil, "2026-1", 0},
		{"2026/a joker does not fill the year row", "F F F 2B WD 2B J 2C WD 2C 6C GD GD GD", nil, "2026-1", 1},
		{"2026/a joker does not fill the dragon pair", "RD J 2C WD 2C 6C 2D 2D 2D 6D 6D 6D F F", nil, "2026-3", 1},
		{"2026/jokers fill the flower pung", "J J 2B WD 2B 6B 2C WD 2C 6C GD GD GD", nil, "2026-1", 1},
		{"singles pairs/jokers count for nothing", "N N S S F F J J J J J J J J", nil, "Singles And Pairs-1", 8},
		{"singles pairs/ruled out by an exposure", "N N S S 4C 4C 5C 5C 6C 6C F", []string{"7C 7C 7C"}, "Singles And Pairs-1", -1},
		{"quints/jokers make the quints", "J J J J J J J J J J J J J", nil, "Quints-2", 1},
		{"like numbers/with an exposure", "7C 7C J F F", []string{"7B 7B 7B", "7D 7D 7D 7D"}, "Any Like Numbers-1", 2},
		{"like numbers/exposure on a hand it does not fit", "7C 7C J F F", []string{"7B 7B 7B", "7D 7D 7D 7D"}, "Addition Hands-1", -1},
		{"siamese/28 tiles", "F F F F 2B WD 2B 6B 2C WD 2C 6C GD GD 1B 2B 3B 4B 5B 6B 7B 8B 9B E S W N J", nil, "2026-1", 0},
		{"siamese/28 tiles, another hand", "F F F F 2B WD 2B 6B 2C WD 2C 6C GD GD 1B 2B 3B 4B 5B 6B 7B 8B 9B E S W N J", nil, "Singles And Pairs-5", 5},
		{"siamese/28 tiles, three short less the joker", "F F F F 2B WD 2B 6B 2C WD 2C 6C GD GD 1B 2B 3B 4B 5B 6B 7B 8B 9B E S W N J", nil, "2026-3", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := exRack(t, tc.concealed, tc.exposed...)
			got := -1
			for _, a := range c.Away(r.Concealed, r.Exposed) {
				if a.HandID == tc.hand {
					got = a.Away
				}
			}
			if got != tc.away {
				t.Errorf("Away(%s) for %s = %d, want %d (-1: ruled out)", oRackString(r), tc.hand, got, tc.away)
			}
		})
	}
}
