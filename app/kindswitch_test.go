package app_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"proposaldesk/app"
)

// TestNoKindSwitchesOutsideApp keeps the design honest: outside app,
// production code reads an edit's description (route, params, fields,
// words) instead of switching on or asserting its concrete type, so a
// new kind of edit needs no change elsewhere.
func TestNoKindSwitchesOutsideApp(t *testing.T) {
	kindTypes := map[string]bool{}
	for _, k := range app.MutationKinds() {
		m, _ := app.NewMutation(k)
		kindTypes[reflect.TypeOf(m).Elem().Name()] = true
	}
	root := ".."
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (name == "app" && filepath.Dir(path) == root || strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		isKind := func(e ast.Expr) bool {
			if st, ok := e.(*ast.StarExpr); ok {
				e = st.X
			}
			sel, ok := e.(*ast.SelectorExpr)
			if !ok {
				return false
			}
			pkg, ok := sel.X.(*ast.Ident)
			return ok && pkg.Name == "app" && kindTypes[sel.Sel.Name]
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CaseClause:
				for _, e := range n.List {
					if isKind(e) {
						t.Errorf("%s: a case on edit kind %s; read the edit's description instead", fset.Position(e.Pos()), types(e))
					}
				}
			case *ast.TypeAssertExpr:
				if n.Type != nil && isKind(n.Type) {
					t.Errorf("%s: a type assertion to edit kind %s; read the edit's description instead", fset.Position(n.Pos()), types(n.Type))
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("only %d files checked: is the walk rooted at the module?", checked)
	}
}

func types(e ast.Expr) string {
	if st, ok := e.(*ast.StarExpr); ok {
		e = st.X
	}
	if sel, ok := e.(*ast.SelectorExpr); ok {
		return "app." + sel.Sel.Name
	}
	return "?"
}
