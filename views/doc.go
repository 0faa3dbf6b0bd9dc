// Package views is the contract between the dashboard's root model (package
// ui) and its panes (views/<pane>). A pane is one area of the dashboard:
// alerts, backups, search, access logs, migration, settings.
//
// # What a pane is
//
// A pane implements Pane. It is built by a Factory from a Context value (the
// API client, the gate, the theme, the keymap, the clock and the selected
// org/project/cluster) and receives a fresh Context in ContextChangedMsg
// whenever any of those change. Panes never import each other or package ui;
// they talk to the rest of the dashboard only through the messages below.
//
// # Keys and actions: the only way to change anything
//
// A pane lists what it can do in Actions(): keymap.Action values carrying the
// catalog operation they call (Op) and whether they are Dangerous. The root
// matches key presses against those actions itself and, before anything
// reaches the pane, asks the gate (read-only mode, then the caller's roles
// from apiclient.Gate). Only an allowed action is delivered, as an ActionMsg.
// A denied one shows the reason ("read-only mode", "acknowledge needs Project
// Owner or ...") and the pane never hears of it. Keys that are not actions
// (moving the cursor, opening a detail) arrive as tea.KeyPressMsg.
//
// So a pane must start a mutating request only in answer to an ActionMsg, and
// a confirmation goes through the root too: the pane returns a ConfirmMsg
// whose Action is delivered back, through the gate again, only when the user
// says yes (the default is No). Tests in package ui drive every key of every
// pane's actions in read-only mode and with an under-privileged identity and
// assert that no mutating request reached the server.
//
// Forms work the same way: a pane returns a FormMsg (fields from
// components.Field); a valid submit comes back as an ActionMsg with Form and
// Values set, after the gate is asked again, and the dialog stays open until
// the pane answers FormDone. An error then shows in the dialog, everything
// typed kept.
//
// # Editing in $EDITOR
//
// Edit.Open writes text under a comment header to a temporary file and hands
// the terminal to the user's editor; an EditedMsg (inside a PaneMsg) brings
// the text back with the header stripped and line numbers kept, so
// DecodeJSON's line and column are the file's. On an error a pane reopens
// the editor with the user's text; nothing typed is lost.
//
// # Requests, results and polling
//
// A pane's Cmds capture what they need before they return (they never read
// the model on another goroutine). Get, Load and Write run a request and
// answer with a typed Result[T] stamped with the pane's id and a sequence
// number from Seq, so an answer to an older request is recognised and
// dropped. The root routes a Result (any Routed message) to its pane even
// when that pane is not on screen, drives the task line from it, and stamps
// "updated Ns ago" when it carries no error.
//
// Panes embed Base, which does the shared handling and holds the one poll
// policy: a pane polls only while visible or while it watches a job that has
// not finished, using Poller (every Arm starts a new generation and
// PollTickMsg carries it, so a manual refresh or a pane switch never leaves
// two loops running), backs off after failed loads, honours Retry-After, and
// records the health the header shows as staleness.
//
// # Shared messages from the root
//
// FilterMsg (the `/` bar's text; see MatchFilter), RefreshMsg (`r`),
// PauseMsg (`p`), ContextChangedMsg (picker, palette, read-only toggle,
// theme, layout) and ActionMsg. For `y` the root copies Selected().
//
// # Tests
//
// Package viewstest starts apisim on a manual clock, builds a Context and
// drives a pane's Cmds to completion, so a test asserts the requests on the
// wire, apisim's state afterwards and golden screens under testdata/<pane>/.
//
// # Safety
//
// Every string that came from the server must go through
// components.Sanitize before a pane renders it.
package views
