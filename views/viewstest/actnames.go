package viewstest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// UnregisteredActionConsts lists the string constants named act… in the
// pane package in the current directory (a test's package) whose value
// names no action of reg: a pane that matches ActionMsg.Name against such a
// constant would never see a misspelt one.
func UnregisteredActionConsts(t testing.TB, reg views.Registration) []string {
	t.Helper()
	declared := map[string]bool{}
	for _, a := range reg.Actions {
		declared[a.Name] = true
	}
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	var missing []string
	seen := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err, name)
		ast.Inspect(f, func(n ast.Node) bool {
			spec, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			for i, id := range spec.Names {
				if !strings.HasPrefix(id.Name, "act") || i >= len(spec.Values) {
					continue
				}
				lit, ok := spec.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				v, err := strconv.Unquote(lit.Value)
				require.NoError(t, err)
				seen++
				if !declared[v] {
					missing = append(missing, id.Name+" = "+strconv.Quote(v))
				}
			}
			return true
		})
	}
	require.NotZero(t, seen, "the package declares no act… constants: nothing was checked")
	return missing
}

// Offered is the action named as the pane offers it now (Actions, greyed
// or not); the test fails when the pane does not offer it.
func Offered(t testing.TB, p views.Pane, name string) keymap.Action {
	t.Helper()
	for _, a := range p.Actions() {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("the pane does not offer %s", name)
	return keymap.Action{}
}
