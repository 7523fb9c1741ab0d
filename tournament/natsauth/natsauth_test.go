package natsauth

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nats-io/nats-server/v2/server"
	"golang.org/x/crypto/bcrypt"
)

// TestLoadOrCreate: made on first use with mode 0600 in a directory of 0700, read back the
// same, a table the event gained given its own keys and the others kept, another event's file
// and a file others may read refused.
func TestLoadOrCreate(t *testing.T) {
	path := File(t.TempDir())
	c, made, err := LoadOrCreate(path, "Club night", 2)
	if err != nil || !made {
		t.Fatalf("first use: made %v, %v", made, err)
	}
	for p, want := range map[string]os.FileMode{path: 0o600, filepath.Dir(path): 0o700} {
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != want {
			t.Errorf("%s: mode %v (%v), want %04o", p, st.Mode().Perm(), err, want)
		}
	}
	again, made, err := LoadOrCreate(path, "Club night", 2)
	if err != nil || made || again.Desk != c.Desk || again.Route != c.Route || again.Table(2).NKey != c.Table(2).NKey {
		t.Fatalf("read back: made %v, %v, changed %v", made, err, again.Desk != c.Desk)
	}
	more, made, err := LoadOrCreate(path, "Club night", 3)
	if err != nil || !made || len(more.Tables) != 3 || more.Table(1).NKey != c.Table(1).NKey || more.Table(3) == nil || more.Table(3).NKey == c.Table(2).NKey {
		t.Fatalf("a third table: made %v, %v, %+v", made, err, more.Tables)
	}
	if _, _, err := LoadOrCreate(path, "Another night", 3); err == nil || !strings.Contains(err.Error(), `holds event "Club night"'s credentials`) {
		t.Errorf("another event's credentials: %v", err)
	}
	os.Chmod(path, 0o640)
	if _, _, err := LoadOrCreate(path, "Club night", 3); err == nil || !strings.Contains(err.Error(), "others may read it (mode 0640): chmod 600") {
		t.Errorf("a file others may read: %v", err)
	}
}

// TestCredentialsProblems: a damaged file is refused with every problem named.
func TestCredentialsProblems(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(path, []byte("event: x\nroute: short\ndesk: SUnot-a-seed\ndisplay: \"\"\ntables:\n  - {table: 1, nkey: x, mqtt: y}\n  - {table: 1, nkey: x, mqtt: y}\n"), 0o600)
	_, _, err := LoadOrCreate(path, "x", 1)
	for _, want := range []string{"route: a password of at least 16", "display: a password", "desk: not an nkey seed", "tables[1]: table 1: want a number from 1, once", "tables[0].nkey: not an nkey seed", "tables[0].mqtt"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("no %q in %v", want, err)
		}
	}
}

// TestTableFile: a table's file says which table of which event it is for, and a table given
// another's is told so.
func TestTableFile(t *testing.T) {
	c, _, err := LoadOrCreate(File(t.TempDir()), "Club night", 4)
	if err != nil {
		t.Fatal(err)
	}
	f, err := c.ForTable(3)
	if err != nil {
		t.Fatal(err)
	}
	path := TableFilePath(t.TempDir())
	if err := f.Write(path); err != nil {
		t.Fatal(err)
	}
	got, err := LoadTable(path, "Club night", 3)
	if err != nil || got != f {
		t.Fatalf("read back %+v, %v", got, err)
	}
	if _, err := LoadTable(path, "Club night", 4); err == nil || !strings.Contains(err.Error(), "is for table 3 of \"Club night\", not table 4") {
		t.Errorf("table 4 given table 3's: %v", err)
	}
	if _, err := c.ForTable(5); err == nil {
		t.Error("credentials for a table the event has not")
	}
	if lo := f.Link(); lo.NKey != c.Table(3).NKey || lo.Inbox != "_INBOX.t3" {
		t.Errorf("table 3 logs in as %+v", lo)
	}
}

// TestUsersConf: the servers' users as nats-server reads them: each nkey a public key (no
// seed in the file), each MQTT password a hash of the right one, the permissions as Users
// says, nothing for anyone else.
func TestUsersConf(t *testing.T) {
	c, _, err := LoadOrCreate(File(t.TempDir()), "Club night", 2)
	if err != nil {
		t.Fatal(err)
	}
	text, err := c.UsersConf()
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{c.Desk, c.Route, c.Display, c.Table(1).NKey, c.Table(2).MQTT} {
		if strings.Contains(text, secret) {
			t.Errorf("the servers' file holds a secret: %s", secret)
		}
	}
	o := &server.Options{}
	if err := o.ProcessConfigString("authorization {\n" + text + "}\n"); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	users, _ := c.Users()
	if len(o.Nkeys) != 3 || len(o.Users) != 3 || o.NoAuthUser != "" {
		t.Fatalf("%d nkey users and %d password users (no_auth_user %q), want 3 and 3", len(o.Nkeys), len(o.Users), o.NoAuthUser)
	}
	byLogin := map[string]*server.Permissions{}
	for _, u := range o.Nkeys {
		byLogin[u.Nkey] = u.Permissions
	}
	for _, u := range o.Users {
		byLogin[u.Username] = u.Permissions
		want := c.Display
		for _, tb := range c.Tables {
			if u.Username == MQTTTableUser(tb.Table) {
				want = tb.MQTT
			}
		}
		if bcrypt.CompareHashAndPassword([]byte(u.Password), []byte(want)) != nil {
			t.Errorf("%s: the hash is not of its password", u.Username)
		}
	}
	for _, u := range users {
		p := byLogin[u.Login]
		if p == nil || p.Publish == nil || p.Subscribe == nil {
			t.Fatalf("%s: no permissions", u.Who)
		}
		if strings.Join(p.Publish.Allow, " ") != strings.Join(u.Publish, " ") || strings.Join(p.Subscribe.Allow, " ") != strings.Join(u.Subscribe, " ") {
			t.Errorf("%s: publish %v subscribe %v, want %v and %v", u.Who, p.Publish.Allow, p.Subscribe.Allow, u.Publish, u.Subscribe)
		}
		if len(u.Publish) == 0 && strings.Join(p.Publish.Deny, " ") != ">" {
			t.Errorf("%s publishes nothing, but the file does not deny it", u.Who)
		}
	}
}

// TestRoutesConf: the routes as nats-server reads them carry the routes' user and password.
func TestRoutesConf(t *testing.T) {
	c, _, err := LoadOrCreate(File(t.TempDir()), "Club night", 1)
	if err != nil {
		t.Fatal(err)
	}
	o := &server.Options{}
	if err := o.ProcessConfigString("cluster {\n  name: x\n  listen: 127.0.0.1:6222\n" + c.RoutesConf(DefaultNodes) + "}\n"); err != nil {
		t.Fatal(err)
	}
	if o.Cluster.Username != RouteUser || o.Cluster.Password != c.Route || len(o.Routes) != 3 {
		t.Fatalf("cluster user %q, %d routes", o.Cluster.Username, len(o.Routes))
	}
	for _, r := range o.Routes {
		if p, _ := r.User.Password(); r.User.Username() != RouteUser || p != c.Route || !strings.HasPrefix(r.Host, "nats-") {
			t.Errorf("route %s", r.Redacted())
		}
	}
}

// FuzzParseTable: a table's credentials file, whatever it holds, is read or refused, never a
// panic, and what is read is checked.
func FuzzParseTable(f *testing.F) {
	c, _, err := LoadOrCreate(File(f.TempDir()), "Club night", 1)
	if err != nil {
		f.Fatal(err)
	}
	tf, _ := c.ForTable(1)
	good, _ := tf.Marshal()
	f.Add(good)
	f.Add([]byte("event: x\ntable: -1\nnkey: SUAA\n"))
	f.Add([]byte("{"))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := ParseTable(b)
		if err == nil {
			if _, perr := PublicKey(got.NKey); perr != nil || got.Table < 1 || got.Event == "" {
				t.Errorf("accepted %+v", got)
			}
		}
	})
}
