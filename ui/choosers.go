package ui

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// Choosers and confirmations as people know them from other programs:
// a select list jumps to what is typed, Enter answers a confirmation
// with its highlighted button, and New contact… starts from the search.

// typeAheadPause ends a type-ahead word: letters typed within it of each
// other are one word ("tex"), a longer pause starts a new one.
const typeAheadPause = time.Second

// typeAheadSelect is a Select that jumps to the option starting with
// the letters typed while it has the focus.
type typeAheadSelect struct {
	widget.Select
	typed string
	at    time.Time
	now   func() time.Time
}

func newTypeAheadSelect(options []string, placeholder string) *typeAheadSelect {
	s := &typeAheadSelect{now: time.Now}
	s.Options, s.PlaceHolder = options, placeholder
	s.ExtendBaseWidget(s)
	return s
}

// TypedRune adds r to the word being typed and selects the option it
// finds.
func (s *typeAheadSelect) TypedRune(r rune) {
	now := s.now()
	if now.Sub(s.at) > typeAheadPause {
		s.typed = ""
	}
	s.at = now
	s.typed += string(r)
	if i := typeAhead(s.Options, s.SelectedIndex(), s.typed); i >= 0 && i != s.SelectedIndex() {
		s.SetSelectedIndex(i)
	}
}

// typeAhead is the option to choose for the word typed, as list boxes
// do it: the first option from the current one on that starts with the
// word (case ignored); a single letter, or the same letter typed again
// ("t", "tt"), steps to the next option with that first letter, round
// the end ("T" → Tennessee, "T" again → Texas). -1: nothing matches.
func typeAhead(options []string, current int, typed string) int {
	typed = strings.ToLower(typed)
	if typed == "" || len(options) == 0 {
		return -1
	}
	starts := func(i int, prefix string) bool {
		return strings.HasPrefix(strings.ToLower(options[i]), prefix)
	}
	find := func(from int, prefix string) int {
		for k := range options {
			if i := (from + k) % len(options); starts(i, prefix) {
				return i
			}
		}
		return -1
	}
	first, size := utf8.DecodeRuneInString(typed)
	repeated := strings.Trim(typed, string(first)) == ""
	if len(typed) > size {
		if i := find(max(current, 0), typed); i >= 0 {
			return i
		}
		if !repeated {
			return -1
		}
	}
	if unicode.IsSpace(first) {
		return -1
	}
	return find(current+1, typed[:size])
}

// confirmTop is the confirmation Enter answers, if one is showing: the
// export's "Replace?" above its dialog, or the open dialog itself.
func (d *Desktop) confirmTop() *dialog.ConfirmDialog {
	if c, ok := d.exportConfirm.(*dialog.ConfirmDialog); ok {
		return c
	}
	c, _ := d.dlg.(*dialog.ConfirmDialog)
	return c
}

// contactFromSearch splits what was typed in the contact search into
// the new contact's fields: an email address as the email, else the
// last word as the last name and the rest as the first name.
func contactFromSearch(s string) (first, last, email string) {
	words := strings.Fields(s)
	switch {
	case len(words) == 0:
		return "", "", ""
	case len(words) == 1 && strings.Contains(words[0], "@"):
		return "", "", words[0]
	case len(words) == 1:
		return words[0], "", ""
	}
	return strings.Join(words[:len(words)-1], " "), words[len(words)-1], ""
}
