package setup

// Table is what the set-up page asks of the table: the daemon answers.
type Table interface {
	// Playing is what the table plays now and the card a form may keep.
	Playing() (Playing, InUse)
	// Fits checks a plan against what the form cannot see: the racks (two for each player),
	// a tournament's rules.
	Fits(Plan) error
	// Apply hands a saved plan to the table (nil: the configuration file's settings again)
	// and says when it takes effect.
	Apply(*Plan) (Applied, error)
}

// Playing is what the table plays now.
type Playing struct {
	Rules   string   `json:"rules"`
	Card    string   `json:"card"`
	Names   []string `json:"names"`
	Game    string   `json:"game"`
	Acts    int      `json:"acts"`              // acts played in the game
	Waiting bool     `json:"waiting"`           // the game is over, the next not begun
	Pending *Applied `json:"pending,omitempty"` // settings saved, not all in play yet
}

// When says when saved settings take effect.
type When string

const (
	// Now: no act was played yet; the game begins afresh with them.
	Now When = "now"
	// NextGame: from the next game on; the game in play keeps what it began with.
	NextGame When = "next game"
	// NextStart: when the daemon next starts (what it started with cannot change under it).
	NextStart When = "next start"
)

// Applied says when the names, and the rules with the card, take effect, and why.
type Applied struct {
	Names When   `json:"names"`
	Rules When   `json:"rules"` // the rules and the card
	Why   string `json:"why,omitempty"`
}

// Keys are the seats' MQTT logins, which a code hands to a phone.
type Keys interface {
	// Login is what a phone needs to log in as seat n.
	Login(seat int) (Login, error)
	// TakeBack gives seat n a new password, so the phone that held it is out.
	TakeBack(seat int) (TakenBack, error)
}

// Login is a seat's MQTT login, as the join page stores it in the phone's browser.
type Login struct {
	Table    string `json:"table"`
	Seat     int    `json:"seat"`
	Name     string `json:"name"`
	User     string `json:"user"`
	Password string `json:"password"`
}

// TakenBack says what taking a seat back did: the phones dropped (the embedded broker), or
// what the owner must still do for the broker to know the new password (Mosquitto).
type TakenBack struct {
	Dropped int      `json:"dropped"`
	Steps   []string `json:"steps,omitempty"`
}

// Check is one thing the table needs before it is ready (the table's settings; the racks and
// the camera come with their own sections of the page).
type Check struct {
	Name  string
	Ready func() (ok bool, text string)
}
