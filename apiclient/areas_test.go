package apiclient

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serviceAreas maps each typed service to the catalog area it serves.
var serviceAreas = map[string]catalog.Area{
	"ProjectsService":     catalog.AreaProjects,
	"ClustersService":     catalog.AreaClusters,
	"RateLimitsService":   catalog.AreaRateLimits,
	"AccessLogsService":   catalog.AreaAccessLogs,
	"AlertsService":       catalog.AreaAlerts,
	"AlertConfigsService": catalog.AreaAlerts,
	"SearchService":       catalog.AreaSearch,
	"SettingsService":     catalog.AreaSettings,
	"BackupsService":      catalog.AreaBackups,
	"MigrationService":    catalog.AreaMigration,
}

// outsideServices are the functions outside the services that name
// operations, each with the one area it may name and why.
var outsideServices = map[string]struct {
	area catalog.Area
	why  string
}{
	"WhoAmI":         {catalog.AreaProjects, "who am I is the client's own question (check, the role badge), asked before any project is chosen"},
	"ServerlessGone": {catalog.AreaBackups, "reads the serverless backup routes' sunset from the catalog; it calls nothing"},
}

// opLiteral is a catalog operation id written in the package's code.
type opLiteral struct {
	op       catalog.Op
	receiver string // the service type whose method names it; "" outside a service method
	method   string // the function or method naming it
	pos      token.Position
}

// opLiterals finds every string literal of the package's non-test files
// that is a catalog operation id, with the function that holds it.
func opLiterals(t *testing.T) []opLiteral {
	t.Helper()
	fset, files := parsePackage(t)
	var out []opLiteral
	for _, f := range files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				eachOpLiteral(d, func(op catalog.Op, pos token.Pos) {
					out = append(out, opLiteral{op: op, method: "(package level)", pos: fset.Position(pos)})
				})
				continue
			}
			recv := ""
			if fn.Recv != nil && len(fn.Recv.List) == 1 {
				switch x := fn.Recv.List[0].Type.(type) {
				case *ast.Ident:
					recv = x.Name
				case *ast.StarExpr:
					if id, ok := x.X.(*ast.Ident); ok {
						recv = id.Name
					}
				}
			}
			eachOpLiteral(fn.Body, func(op catalog.Op, pos token.Pos) {
				out = append(out, opLiteral{op: op, receiver: recv, method: fn.Name.Name, pos: fset.Position(pos)})
			})
		}
	}
	return out
}

// parsePackage parses the package's non-test files.
func parsePackage(t *testing.T) (*token.FileSet, []*ast.File) {
	t.Helper()
	names, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err, name)
		files = append(files, f)
	}
	return fset, files
}

// eachOpLiteral calls found for every string literal under n that is a
// catalog operation id.
func eachOpLiteral(n ast.Node, found func(op catalog.Op, pos token.Pos)) {
	ast.Inspect(n, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			return true
		}
		if op, ok := catalog.Get(s); ok {
			found(op, lit.Pos())
		}
		return true
	})
}

// TestServicesCallOnlyTheirArea: a service's methods name only operations of
// the service's catalog area, and an operation named outside every service
// method is a documented exception. A method moved to the wrong service, or
// an operation put in the wrong area, fails here.
func TestServicesCallOnlyTheirArea(t *testing.T) {
	lits := opLiterals(t)
	require.NotEmpty(t, lits)
	perArea := map[catalog.Area]int{}
	used := map[string]bool{}
	for _, l := range lits {
		where := l.pos.String() + " " + l.method
		if area, ok := serviceAreas[l.receiver]; ok {
			perArea[area]++
			assert.Equal(t, area, l.op.Area, "%s: %s.%s calls %s of area %s", where, l.receiver, l.method, l.op.ID, l.op.Area)
			continue
		}
		ex, ok := outsideServices[l.method]
		if !assert.True(t, ok, "%s names %s outside a service method: move it to the %s service or document the exception", where, l.op.ID, l.op.Area) {
			continue
		}
		used[l.method] = true
		assert.Equal(t, ex.area, l.op.Area, "%s names %s of area %s; its documented area is %s", where, l.op.ID, l.op.Area, ex.area)
	}
	for name := range outsideServices {
		assert.True(t, used[name], "exception %s names no operation any more: remove it", name)
	}
	for _, a := range catalog.Areas() {
		assert.NotZero(t, perArea[a], "no service method calls an operation of area %s", a)
	}
}

// TestEveryServiceHasAnArea: each *Service type of the package is in
// serviceAreas, and the map names no service that does not exist.
func TestEveryServiceHasAnArea(t *testing.T) {
	_, files := parsePackage(t)
	var found []string
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, s := range g.Specs {
				if ts := s.(*ast.TypeSpec); strings.HasSuffix(ts.Name.Name, "Service") {
					found = append(found, ts.Name.Name)
				}
			}
		}
	}
	sort.Strings(found)
	var want []string
	for s := range serviceAreas {
		want = append(want, s)
	}
	sort.Strings(want)
	assert.Equal(t, want, found)
}
