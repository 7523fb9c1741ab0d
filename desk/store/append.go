package store

import (
	"fmt"
	"time"
)

// Append records a change; a change of the same kind and ref recorded before is left as it is
// and added is false. The row is on disk (synced) when Append returns.
func (s *Store) Append(c Change) (added bool, n int64, err error) {
	if c.At.IsZero() {
		c.At = time.Now()
	}
	res, err := s.db.Exec(`INSERT INTO changes (at, who, why, kind, ref, tbl, round, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (kind, ref) DO NOTHING`,
		c.At.UTC().Format(time.RFC3339Nano), c.Who, c.Why, c.Kind, c.Ref, c.Table, c.Round, string(c.Body))
	if err != nil {
		return false, 0, fmt.Errorf("store: %s: recording %s %s: %w", s.path, c.Kind, c.Ref, err)
	}
	rows, err := res.RowsAffected()
	if err != nil || rows == 0 {
		return false, 0, err
	}
	n, err = res.LastInsertId()
	return true, n, err
}

// Since lists the changes after n, in the order they were recorded.
func (s *Store) Since(n int64) ([]Change, error) {
	rows, err := s.db.Query(`SELECT n, at, who, why, kind, ref, tbl, round, body FROM changes WHERE n > ? ORDER BY n`, n)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", s.path, err)
	}
	defer rows.Close()
	var out []Change
	for rows.Next() {
		var c Change
		var at, body string
		if err := rows.Scan(&c.N, &at, &c.Who, &c.Why, &c.Kind, &c.Ref, &c.Table, &c.Round, &body); err != nil {
			return nil, fmt.Errorf("store: %s: %w", s.path, err)
		}
		if c.At, err = time.Parse(time.RFC3339Nano, at); err != nil {
			return nil, s.damaged(fmt.Errorf("change %d: time %q: %w", c.N, at, err))
		}
		c.Body = []byte(body)
		out = append(out, c)
	}
	return out, rows.Err()
}

// AppendAll records changes in one transaction (one sync for all): added[i] tells whether
// changes[i] was new, n[i] its number. Either every change is recorded or none is.
func (s *Store) AppendAll(changes []Change) (added []bool, n []int64, err error) {
	tx, err := s.db.Begin()
	if err != nil {
		return nil, nil, fmt.Errorf("store: %s: %w", s.path, err)
	}
	defer tx.Rollback()
	stmt, err := tx.Prepare(`INSERT INTO changes (at, who, why, kind, ref, tbl, round, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (kind, ref) DO NOTHING`)
	if err != nil {
		return nil, nil, fmt.Errorf("store: %s: %w", s.path, err)
	}
	defer stmt.Close()
	for _, c := range changes {
		if c.At.IsZero() {
			c.At = time.Now()
		}
		res, err := stmt.Exec(c.At.UTC().Format(time.RFC3339Nano), c.Who, c.Why, c.Kind, c.Ref, c.Table, c.Round, string(c.Body))
		if err != nil {
			return nil, nil, fmt.Errorf("store: %s: recording %s %s: %w", s.path, c.Kind, c.Ref, err)
		}
		rows, err := res.RowsAffected()
		if err != nil {
			return nil, nil, err
		}
		id := int64(0)
		if rows > 0 {
			if id, err = res.LastInsertId(); err != nil {
				return nil, nil, err
			}
		}
		added, n = append(added, rows > 0), append(n, id)
	}
	if err := tx.Commit(); err != nil {
		return nil, nil, fmt.Errorf("store: %s: %w", s.path, err)
	}
	return added, n, nil
}
