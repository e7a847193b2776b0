package localstore

import "context"

// Settings are the desktop's preferences. They are plain data in the
// file: never put a password, API key or secret here (those go to the OS
// keyring).
type Settings struct {
	WindowWidth      int    `json:"windowWidth,omitempty"`
	WindowHeight     int    `json:"windowHeight,omitempty"`
	LastOpenProposal int64  `json:"lastOpenProposal,omitempty"`
	ServerURL        string `json:"serverUrl,omitempty"`
	UserEmail        string `json:"userEmail,omitempty"`
	// ExportFolder is the folder of the last export.
	ExportFolder string `json:"exportFolder,omitempty"`
	// ListHidden: the proposal list pane is collapsed (small screens).
	ListHidden bool `json:"listHidden,omitempty"`
	// DeviceID names this laptop in the evidence of what it records
	// (see DeviceID).
	DeviceID string `json:"deviceId,omitempty"`
}

func (t *txn) settings() (Settings, error) {
	var s Settings
	_, err := getJSON(t.b(bucketSettings), keySettings, &s)
	return s, err
}

func (t *txn) putSettings(s Settings) error { return putJSON(t.b(bucketSettings), keySettings, s) }

// Settings returns the stored preferences (zero values when unset).
func (s *Store) Settings() (Settings, error) {
	var out Settings
	err := s.view(func(t *txn) (err error) { out, err = t.settings(); return })
	return out, err
}

// UpdateSettings changes preferences in one transaction: fn gets the
// stored values and edits them in place.
func (s *Store) UpdateSettings(ctx context.Context, fn func(*Settings)) error {
	return s.update(ctx, func(t *txn) error {
		set, err := t.settings()
		if err != nil {
			return err
		}
		fn(&set)
		return t.putSettings(set)
	})
}
