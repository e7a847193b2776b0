package app_test

import (
	"slices"
	"strings"
	"testing"

	"proposaldesk/app"
)

// contractMoves are the status moves of contract.md, written out from
// its text: Undefined→Draft; Draft→Submitted; Submitted/ViewedByClient/
// Delayed/EmailFailed/Expired→Draft; Submitted/ViewedByClient/Delayed/
// Expired→Accepted or Declined; Accepted→Completed; Accepted→Draft and
// Declined→Draft (reopen).
var contractMoves = map[[2]app.Status]bool{
	{app.StatusUndefined, app.StatusDraft}:         true,
	{app.StatusDraft, app.StatusSubmitted}:         true,
	{app.StatusSubmitted, app.StatusDraft}:         true,
	{app.StatusViewedByClient, app.StatusDraft}:    true,
	{app.StatusDelayed, app.StatusDraft}:           true,
	{app.StatusEmailFailed, app.StatusDraft}:       true,
	{app.StatusExpired, app.StatusDraft}:           true,
	{app.StatusSubmitted, app.StatusAccepted}:      true,
	{app.StatusViewedByClient, app.StatusAccepted}: true,
	{app.StatusDelayed, app.StatusAccepted}:        true,
	{app.StatusExpired, app.StatusAccepted}:        true,
	{app.StatusSubmitted, app.StatusDeclined}:      true,
	{app.StatusViewedByClient, app.StatusDeclined}: true,
	{app.StatusDelayed, app.StatusDeclined}:        true,
	{app.StatusExpired, app.StatusDeclined}:        true,
	{app.StatusAccepted, app.StatusCompleted}:      true,
	{app.StatusAccepted, app.StatusDraft}:          true,
	{app.StatusDeclined, app.StatusDraft}:          true,
}

// allStatuses is the contract's status list.
var allStatuses = []app.Status{"Undefined", "Draft", "Submitted", "ViewedByClient", "Accepted",
	"Declined", "Delayed", "Completed", "EmailFailed", "Expired"}

func TestStatusesAreTheContracts(t *testing.T) {
	if !slices.Equal(app.Statuses, allStatuses) {
		t.Errorf("Statuses = %v, want %v", app.Statuses, allStatuses)
	}
}

// TestTransitions checks every (from, to) pair against the contract, in
// the rule (CanMoveTo, NextStatuses) and through Apply.
func TestTransitions(t *testing.T) {
	for _, from := range allStatuses {
		for _, to := range allStatuses {
			allowed := contractMoves[[2]app.Status{from, to}]
			t.Run(string(from)+"->"+string(to), func(t *testing.T) {
				if got := from.CanMoveTo(to); got != allowed {
					t.Errorf("CanMoveTo = %v, want %v", got, allowed)
				}
				if got := slices.Contains(from.NextStatuses(), to); got != allowed {
					t.Errorf("NextStatuses %v contains %s: %v, want %v", from.NextStatuses(), to, got, allowed)
				}
				got, err := app.Apply(fixtureProposal(from), &app.ChangeStatus{ID: fixtureProposalID, Status: to}, fixtureEnv(fixtureSales))
				switch {
				case allowed && err != nil:
					t.Errorf("Apply: %v, want the move", err)
				case allowed && got.Status != to:
					t.Errorf("status after move %s, want %s", got.Status, to)
				case !allowed && app.KindOf(err) != app.KindInvalidTransition:
					t.Errorf("Apply: kind %s (%v), want InvalidTransition", app.KindOf(err), err)
				}
			})
		}
	}
}

func TestNextStatusesIsACopy(t *testing.T) {
	next := app.StatusSubmitted.NextStatuses()
	if len(next) == 0 {
		t.Fatal("Submitted has no moves")
	}
	next[0] = app.StatusCompleted
	if app.StatusSubmitted.CanMoveTo(app.StatusCompleted) {
		t.Error("editing NextStatuses' result changed the transition table")
	}
}

// lockedStatuses and lockingKinds are the contract's editing rule: these
// statuses refuse operations 4, 5, 9, 10, 11 and 12; operations 6, 13 and
// 14 work in every status.
var (
	lockedStatuses = []app.Status{app.StatusAccepted, app.StatusDeclined, app.StatusCompleted}
	lockingKinds   = []app.MutationKind{app.KindUpdateProposal, app.KindSetDescription, app.KindCreateArea,
		app.KindCreateOption, app.KindSetOptionClientDesc, app.KindSetOptionInstaller,
		// The content edits of the contract's "Proposal content and catalog".
		app.KindAddItem, app.KindChangeItem, app.KindRemoveItem, app.KindRenameArea, app.KindRemoveArea,
		app.KindRemoveOption, app.KindSetOptionStatus, app.KindSetPricing}
	neverLockedKinds = []app.MutationKind{app.KindSetInternalNotes, app.KindAssignContact, app.KindAssignLocation,
		app.KindSetArchived, app.KindCopyProposal}
)

func TestLocked(t *testing.T) {
	for _, s := range allStatuses {
		if got, want := s.Locked(), slices.Contains(lockedStatuses, s); got != want {
			t.Errorf("%s.Locked() = %v, want %v", s, got, want)
		}
	}
}

// TestEditingRule applies every edit of a proposal in every status.
func TestEditingRule(t *testing.T) {
	for _, m := range fixtureMutations() {
		locking := slices.Contains(lockingKinds, m.Kind())
		if !locking && !slices.Contains(neverLockedKinds, m.Kind()) {
			continue // create and status change: not edits under the rule
		}
		for _, s := range allStatuses {
			t.Run(string(m.Kind())+"/"+string(s), func(t *testing.T) {
				p := fixtureTarget(m, s)
				got, err := app.Apply(p, m, fixtureEnv(fixtureSales))
				if locking && slices.Contains(lockedStatuses, s) {
					if k := app.KindOf(err); k != app.KindProposalLocked {
						t.Errorf("kind %s (%v), want ProposalLocked", k, err)
					}
					return
				}
				if err != nil {
					t.Fatalf("Apply: %v, want success in %s", err, s)
				}
				if got.ID == p.ID && got.Status != s { // a copy is a new Draft
					t.Errorf("status changed from %s to %s", s, got.Status)
				}
			})
		}
	}
}

func TestCheckName(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    string
		ok   bool
	}{
		{"simple", "Kitchen", true},
		{"one character", "K", true},
		{"surrounding spaces kept", "  Den  ", true},
		{"200 ASCII", strings.Repeat("a", 200), true},
		{"200 two-byte characters", name200, true},
		{"200 emoji", strings.Repeat("🎛", 200), true},
		{"empty", "", false},
		{"spaces", "   ", false},
		{"tabs and newlines", "\t\n", false},
		{"201 ASCII", strings.Repeat("a", 201), false},
		{"201 two-byte characters", name201, false},
		{"invalid UTF-8", badUTF8, false},
		{"truncated UTF-8", "caf\xc3", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := app.CheckName("Name", tc.s)
			if tc.ok {
				if err != nil {
					t.Errorf("CheckName: %v", err)
				}
				return
			}
			if app.KindOf(err) != app.KindValidationFailed {
				t.Fatalf("CheckName = %v, want ValidationFailed", err)
			}
			assertNamesField(t, err, "Name")
		})
	}
}

func TestCheckText(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    string
		ok   bool
	}{
		{"empty clears", "", true},
		{"only spaces", "   ", true},
		{"100000 characters", text100k, true},
		{"100000 ASCII", strings.Repeat("x", 100_000), true},
		{"100001 characters", text100k1, false},
		{"100001 ASCII", strings.Repeat("x", 100_001), false},
		{"invalid UTF-8", badUTF8, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := app.CheckText("Notes", tc.s)
			if tc.ok {
				if err != nil {
					t.Errorf("CheckText: %v", err)
				}
				return
			}
			if app.KindOf(err) != app.KindValidationFailed {
				t.Fatalf("CheckText = %v, want ValidationFailed", err)
			}
			assertNamesField(t, err, "Notes")
		})
	}
}

func TestSameAreaName(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"Kitchen", "Kitchen", true},
		{"Kitchen", " kitchen ", true},
		{"Kitchen", "KITCHEN\t", true},
		{"Living Room", "living room", true},
		{"Kitchen", "Kitchenette", false},
		{"Living Room", "LivingRoom", false},
		{"Living Room", "Living  Room", false},
		{"Den", "", false},
	} {
		if got := app.SameAreaName(tc.a, tc.b); got != tc.same {
			t.Errorf("SameAreaName(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.same)
		}
		if got := app.SameAreaName(tc.b, tc.a); got != tc.same {
			t.Errorf("SameAreaName(%q, %q) = %v, want %v", tc.b, tc.a, got, tc.same)
		}
	}
}

func TestCanAddOption(t *testing.T) {
	for n := 0; n <= 4; n++ {
		a := &app.Area{Name: "Den", Options: make([]app.Option, n)}
		err := app.CanAddOption(a)
		if n < 3 && err != nil {
			t.Errorf("%d options: %v, want room", n, err)
		}
		if n >= 3 && app.KindOf(err) != app.KindOptionLimitReached {
			t.Errorf("%d options: %v, want OptionLimitReached", n, err)
		}
	}
}

func TestPrimaryLocation(t *testing.T) {
	loc := func(id int64, primary bool) app.ContactLocation {
		return app.ContactLocation{Location: app.Location{ID: id}, IsPrimary: primary}
	}
	for _, tc := range []struct {
		name string
		locs []app.ContactLocation
		want int64 // 0: none
	}{
		{"none", nil, 0},
		{"one not primary", []app.ContactLocation{loc(1, false)}, 0},
		{"one primary", []app.ContactLocation{loc(1, true)}, 1},
		{"primary among others", []app.ContactLocation{loc(1, false), loc(2, true), loc(3, false)}, 2},
		{"two primaries", []app.ContactLocation{loc(1, true), loc(2, false), loc(3, true)}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := app.PrimaryLocation(tc.locs)
			switch {
			case tc.want == 0 && got != nil:
				t.Errorf("got location %d, want none", got.ID)
			case tc.want != 0 && (got == nil || got.ID != tc.want):
				t.Errorf("got %+v, want location %d", got, tc.want)
			}
		})
	}
}

func TestRolePermissions(t *testing.T) {
	all := []app.Permission{app.PermViewProposals, app.PermEditProposals, app.PermViewCosts, app.PermExport, app.PermManageUsers, app.PermManageCatalog, app.PermManageWebhooks}
	want := map[app.Role][]app.Permission{
		app.RoleAdmin:  all,
		app.RoleSales:  {app.PermViewProposals, app.PermEditProposals, app.PermViewCosts},
		app.RoleViewer: {app.PermViewProposals},
		"Intruder":     nil,
	}
	for role, perms := range want {
		for _, p := range all {
			if got := role.Can(p); got != slices.Contains(perms, p) {
				t.Errorf("%s.Can(%s) = %v", role, p, got)
			}
		}
		if got := role.ViewOptions().ViewCosts; got != slices.Contains(perms, app.PermViewCosts) {
			t.Errorf("%s sees costs: %v", role, got)
		}
		got := role.Permissions()
		if len(got) != len(perms) {
			t.Errorf("%s.Permissions() = %v, want %v", role, got, perms)
		}
		if len(got) > 0 {
			got[0] = app.PermManageUsers
			if role == app.RoleViewer && role.Can(app.PermManageUsers) {
				t.Error("editing Permissions' result changed the role")
			}
		}
		err := app.Require(app.User{Role: role}, app.PermEditProposals)
		if slices.Contains(perms, app.PermEditProposals) != (err == nil) {
			t.Errorf("Require(%s, edit) = %v", role, err)
		}
		if err != nil && app.KindOf(err) != app.KindPermissionDenied {
			t.Errorf("Require kind %s", app.KindOf(err))
		}
	}
}

// TestOperations: every write needs the edit permission; the spec's
// error table decides which operations need an active subscription (all
// but 3, 7 and 15).
func TestOperations(t *testing.T) {
	for _, tc := range []struct {
		op           app.Operation
		perm         app.Permission
		subscription bool
	}{
		{app.OpListProposals, app.PermViewProposals, true},       // 1
		{app.OpCreateProposal, app.PermEditProposals, true},      // 2
		{app.OpGetProposal, app.PermViewProposals, false},        // 3
		{app.OpUpdateProposal, app.PermEditProposals, true},      // 4
		{app.OpSetDescription, app.PermEditProposals, true},      // 5
		{app.OpSetInternalNotes, app.PermEditProposals, true},    // 6
		{app.OpGetChangeOrder, app.PermViewProposals, false},     // 7
		{app.OpListChangeOrders, app.PermViewProposals, true},    // 8
		{app.OpCreateArea, app.PermEditProposals, true},          // 9
		{app.OpCreateOption, app.PermEditProposals, true},        // 10
		{app.OpSetOptionClientDesc, app.PermEditProposals, true}, // 11
		{app.OpSetOptionInstaller, app.PermEditProposals, true},  // 12
		{app.OpAssignContact, app.PermEditProposals, true},       // 13
		{app.OpAssignLocation, app.PermEditProposals, true},      // 14
		{app.OpKeyExchange, app.PermViewProposals, false},        // 15
		{app.OpChangeStatus, app.PermEditProposals, true},
		{app.OpCreatePerson, app.PermEditProposals, true},
		{app.OpCreateLocation, app.PermEditProposals, true},
		{app.OpExport, app.PermExport, false},
	} {
		if got := tc.op.Permission(); got != tc.perm {
			t.Errorf("%s.Permission() = %s, want %s", tc.op, got, tc.perm)
		}
		if got := tc.op.NeedsSubscription(); got != tc.subscription {
			t.Errorf("%s.NeedsSubscription() = %v, want %v", tc.op, got, tc.subscription)
		}
	}
	for _, m := range fixtureMutations() {
		if p := m.Operation().Permission(); p != app.PermEditProposals {
			t.Errorf("%s needs %s, want EditProposals", m.Kind(), p)
		}
		if !m.Operation().NeedsSubscription() {
			t.Errorf("%s runs without a subscription", m.Kind())
		}
	}
}

// Operation.LockedIn, which the desktop asks to make fields read-only,
// agrees with what Apply does for every mutation in every status.
func TestLockedInAgreesWithApply(t *testing.T) {
	for _, m := range fixtureMutations() {
		if m.Kind() == app.KindCreateProposal || m.Kind() == app.KindChangeStatus {
			continue
		}
		for _, s := range allStatuses {
			_, err := app.Apply(fixtureTarget(m, s), m, fixtureEnv(fixtureSales))
			locked := app.KindOf(err) == app.KindProposalLocked
			if got := m.Operation().LockedIn(s); got != locked {
				t.Errorf("%s in %s: LockedIn %v, Apply says locked %v (%v)", m.Operation(), s, got, locked, err)
			}
		}
	}
}
