// The editor window: menus and toolbar, palette | canvas with plots, problems, comparison,
// localization and docked probes below | inspector, status bar. Opens `initialGraph` when given;
// asks before losing unsaved changes, keeps a recovery file of them, and offers back the graphs of
// editors that crashed.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Qt.labs.settings
import Isochron.Ui

ApplicationWindow {
    id: window
    property string initialGraph
    property alias darkTheme: viewSettings.dark
    readonly property alias graphDocument: document
    readonly property alias runController: run
    readonly property alias graphCanvas: canvas
    readonly property alias centerSplitView: centerSplit  // canvas over the bottom panel (tests restore its state)
    readonly property alias recoveryStore: recovery
    property alias bottomTab: bottomTabs.currentIndex
    width: 1440
    height: 880
    minimumWidth: 900
    minimumHeight: 560
    visible: true
    title: (document.modified ? "● " : "") + document.displayName + (document.graphName.length ? " — " + document.graphName : "") + " — Isochron"
    color: Theme.window

    palette.window: Theme.window
    palette.base: Theme.panel
    palette.alternateBase: Theme.panelAlt
    palette.text: Theme.text
    palette.windowText: Theme.text
    palette.button: Theme.panelAlt
    palette.buttonText: Theme.text
    palette.highlight: Theme.accent
    palette.highlightedText: "white"
    palette.placeholderText: Theme.textFaint
    palette.mid: Theme.border
    palette.dark: Theme.border
    palette.light: Theme.panel
    palette.midlight: Theme.panelAlt
    palette.toolTipBase: Theme.panel
    palette.toolTipText: Theme.text

    GraphDocument { id: document }
    RunController { id: run; document: document; liveValues: viewSettings.liveValues; Component.onCompleted: PluginReloader.attach(run) }
    RecentFiles { id: recent }
    ProbeLayout { id: probeLayout }
    RecoveryStore { id: recovery; document: document }
    SampleCatalog { id: samples }

    Settings {
        id: viewSettings
        category: "view"
        property alias x: window.x
        property alias y: window.y
        property alias width: window.width
        property alias height: window.height
        property bool dark: false
        property bool snap: true
        property bool minimap: true
        property bool liveValues: true
        property var mainSplit
        property var centerSplit
        property int bottomTab: 0
    }
    Binding { target: Theme; property: "dark"; value: viewSettings.dark }

    Component.onCompleted: {
        if (viewSettings.mainSplit) mainSplit.restoreState(viewSettings.mainSplit)
        if (viewSettings.centerSplit) centerSplit.restoreState(viewSettings.centerSplit)
        if (initialGraph.length) openFile(initialGraph)
        Qt.callLater(offerRecovery)
    }

    // ---- files ----
    property var pendingAction: null  // what to do once unsaved changes are dealt with
    function whenSaved(action) {
        if (!document.modified) { action(); return }
        pendingAction = action
        unsavedBox.open()
    }
    function showError(text, details) {
        errorBox.text = text
        errorBox.informativeText = details
        errorBox.open()
    }
    function showInformation(text, details) {
        infoBox.text = text
        infoBox.informativeText = details
        infoBox.open()
    }
    function openFile(path) {
        if (document.open(path)) {
            recent.add(document.filePath)
            canvas.requestFit()
            UiLog.info("opened: " + document.filePath + " (" + document.nodeCount + " nodes)")
        } else {
            showError(qsTr("Cannot open %1").arg(path), document.lastError)
        }
    }
    /// The folder a file dialog starts in: the graph's, else the last one used.
    function dialogFolder() {
        return document.filePath.length ? document.filePath.substring(0, document.filePath.lastIndexOf("/")) : recent.lastFolder
    }
    function saveAs(then) {
        saveDialog.then = then || null
        const name = document.filePath.length ? document.filePath.substring(document.filePath.lastIndexOf("/") + 1)
                                              : (document.graphName.length ? document.graphName.toLowerCase().replace(/[^a-z0-9]+/g, "-") + ".isograph.json" : "")
        saveDialog.openIn(dialogFolder(), name)
    }
    /// After a save went well: the file is recent, and what waited for the save goes on.
    function saved(then) {
        recent.add(document.filePath)
        UiLog.info("saved: " + document.filePath)
        if (then) then()
    }
    function saveTo(path, then) {
        if (document.saveAs(path)) saved(then)
        else showError(qsTr("Cannot save %1").arg(path), document.lastError)
    }
    function save(then) {
        if (document.filePath.length === 0) { saveAs(then); return }
        if (document.save()) saved(then)
        else showError(qsTr("Cannot save %1").arg(document.filePath), document.lastError)
    }
    /// Offer back the graphs of editors that ended without saving (a crash, a kill).
    function offerRecovery() {
        const orphans = recovery.orphans()
        if (!orphans.length) return
        recoverBox.orphans = orphans
        recoverBox.open()
    }
    /// Open orphan `entry` here when this window shows nothing unsaved of another file, else in a new window.
    function recover(entry) {
        const here = !document.modified && (document.filePath.length === 0 || document.filePath === entry.file)
        const target = here ? window : newWindow()
        if (!target) return
        if (target.recoveryStore.restore(entry.id)) {
            target.graphCanvas.requestFit()
            UiLog.info("recovered: " + (entry.file.length ? entry.file : qsTr("untitled")) + " (" + target.graphDocument.nodeCount + " nodes)")
        } else {
            showError(qsTr("Cannot recover %1").arg(entry.file.length ? entry.file : qsTr("the untitled graph")), target.graphDocument.lastError)
        }
    }
    function addNodeAtCentre(typeName) {
        const p = canvas.viewCentre()
        const spot = document.freeSpot(typeName, p.x - 92, p.y - 30)
        document.addNode(typeName, spot.x, spot.y)
        canvas.forceActiveFocus()
    }
    function pasteHere() {
        const p = canvas.viewCentre()
        document.paste(Clipboard.text(), p.x - 92, p.y - 30)
    }
    /// A new editor window (null, with an error shown, if it cannot be made).
    function newWindow(properties) {
        const component = Qt.createComponent("Main.qml")
        const made = component.status === Component.Ready ? component.createObject(null, Object.assign({x: window.x + 40, y: window.y + 40}, properties || {})) : null
        if (!made) showError(qsTr("Cannot open a new window"), component.errorString())
        return made
    }

    onClosing: (close) => {
        viewSettings.mainSplit = mainSplit.saveState()
        viewSettings.centerSplit = centerSplit.saveState()
        if (document.modified) {
            close.accepted = false
            whenSaved(() => { recovery.forget(); document.newGraph(); window.close() })
            return
        }
        run.stopAll()
    }

    // ---- actions (menus, toolbar and shortcuts share them) ----
    Action { id: newAction; text: qsTr("&New"); shortcut: "Ctrl+N"; onTriggered: whenSaved(() => { document.newGraph(); UiLog.info("new graph") }) }
    Action { id: newWindowAction; text: qsTr("New &Window"); shortcut: "Ctrl+Shift+N"; onTriggered: newWindow() }
    Action { id: openAction; text: qsTr("&Open…"); shortcut: "Ctrl+O"; onTriggered: whenSaved(() => openDialog.openIn(dialogFolder().length ? dialogFolder() : samples.folder, "")) }
    Action { id: saveAction; text: qsTr("&Save"); shortcut: "Ctrl+S"; onTriggered: save() }
    Action { id: saveAsAction; text: qsTr("Save &As…"); shortcut: "Ctrl+Shift+S"; onTriggered: saveAs() }
    Action { id: quitAction; text: qsTr("&Quit"); shortcut: "Ctrl+Q"; onTriggered: window.close() }
    Action { id: undoAction; text: document.canUndo ? qsTr("&Undo %1").arg(document.undoText) : qsTr("&Undo"); enabled: document.canUndo; shortcut: "Ctrl+Z"; onTriggered: document.undo() }
    Action { id: redoAction; text: document.canRedo ? qsTr("&Redo %1").arg(document.redoText) : qsTr("&Redo"); enabled: document.canRedo; shortcut: "Ctrl+Shift+Z"; onTriggered: document.redo() }
    Shortcut { sequence: "Ctrl+Y"; onActivated: document.redo() }
    Action { id: cutAction; text: qsTr("Cu&t"); shortcut: "Ctrl+X"; enabled: document.selection.nodeCount > 0; onTriggered: { Clipboard.setText(document.copySelection()); document.deleteSelection() } }
    Action { id: copyAction; text: qsTr("&Copy"); shortcut: "Ctrl+C"; enabled: document.selection.nodeCount > 0; onTriggered: Clipboard.setText(document.copySelection()) }
    Action { id: pasteAction; text: qsTr("&Paste"); shortcut: "Ctrl+V"; onTriggered: pasteHere() }
    Action { id: duplicateAction; text: qsTr("D&uplicate"); shortcut: "Ctrl+D"; enabled: document.selection.nodeCount > 0; onTriggered: document.duplicateSelection() }
    Action { id: deleteAction; text: qsTr("&Delete"); shortcut: "Del"; enabled: !document.selection.empty; onTriggered: document.deleteSelection() }
    Shortcut { sequence: "Backspace"; enabled: canvas.activeFocus; onActivated: document.deleteSelection() }
    Action { id: selectAllAction; text: qsTr("Select &All"); shortcut: "Ctrl+A"; onTriggered: document.selection.selectNodes(document.nodes.nodesIn(-1e9, -1e9, 2e9, 2e9)) }
    Action { id: layoutAction; text: qsTr("Auto-&Layout"); shortcut: "Ctrl+L"; enabled: document.nodeCount > 0; onTriggered: { document.autoLayout(); canvas.requestFit() } }
    Action { id: fitAction; text: qsTr("&Fit to View"); shortcut: "F"; onTriggered: canvas.fitToView(false) }
    Shortcut { sequence: "Shift+F"; onActivated: canvas.fitToView(true) }
    Action { id: zoomInAction; text: qsTr("Zoom &In"); shortcut: "Ctrl++"; onTriggered: canvas.zoomBy(1.25) }
    Action { id: zoomOutAction; text: qsTr("Zoom &Out"); shortcut: "Ctrl+-"; onTriggered: canvas.zoomBy(0.8) }
    Action { id: zoomResetAction; text: qsTr("Actual &Size"); shortcut: "Ctrl+0"; onTriggered: canvas.zoomAt(canvas.width / 2, canvas.height / 2, 1) }
    Action { id: snapAction; text: qsTr("&Snap to Grid"); checkable: true; checked: viewSettings.snap; shortcut: "G"; onToggled: viewSettings.snap = checked }
    Action { id: minimapAction; text: qsTr("&Minimap"); checkable: true; checked: viewSettings.minimap; onToggled: viewSettings.minimap = checked }
    Action { id: liveValuesAction; text: qsTr("&Live Values on Wires"); checkable: true; checked: viewSettings.liveValues; onToggled: viewSettings.liveValues = checked }
    Action { id: darkAction; text: qsTr("&Dark Theme"); checkable: true; checked: viewSettings.dark; onToggled: viewSettings.dark = checked }
    Action { id: runAction; text: qsTr("&Run"); shortcut: "F5"; enabled: !run.running; onTriggered: { bottomTabs.currentIndex = run.localization.available ? 3 : 0; run.start(schedulerBox.currentText === document.schedulerName ? "" : schedulerBox.currentText) } }
    Action { id: stopAction; text: qsTr("&Stop"); shortcut: "Shift+F5"; enabled: run.running; onTriggered: run.stopAll() }
    Action { id: restartAction; text: qsTr("Re&start"); shortcut: "Ctrl+F5"; enabled: run.running && !run.followedFile.length; onTriggered: run.restartWith(run.schedulerText) }
    // Why the graph cannot run on MPI ranks from here ("" when it can).
    readonly property string ranksRefusal: run.ranksRefusal
    Action {
        id: ranksAction
        text: run.ranksNeeded > 0 ? qsTr("Run on MPI &Ranks (%1)").arg(run.ranksNeeded) : qsTr("Run on MPI &Ranks")
        enabled: !run.running
        onTriggered: {
            if (ranksRefusal.length) { showInformation(qsTr("The graph cannot run on MPI ranks"), ranksRefusal); return }
            bottomTabs.currentIndex = 0
            if (!run.startOnRanks()) showError(qsTr("Cannot run on MPI ranks"), run.message)
        }
    }
    Action { id: followAction; text: qsTr("&Follow Telemetry File…"); enabled: !run.running; onTriggered: telemetryDialog.openIn(dialogFolder(), "") }
    Action { id: reloadPluginsAction; text: qsTr("Re&load Plugins"); shortcut: "Ctrl+Shift+R"; onTriggered: PluginReloader.reloadAll() }
    Action { id: compareAction; text: qsTr("&Compare Schedulers…"); shortcut: "F6"; onTriggered: bottomTabs.currentIndex = 2 }
    Action { id: probesAction; text: qsTr("&Probes"); onTriggered: bottomTabs.currentIndex = 4 }
    Action { id: paletteSearchAction; text: qsTr("Search &Operators"); shortcut: "Ctrl+K"; onTriggered: palettePanel.searchField.forceActiveFocus() }
    Action { id: helpAction; text: qsTr("&Keyboard Shortcuts"); shortcut: "F1"; onTriggered: help.open() }
    Action { id: recoverAction; text: qsTr("Re&cover Unsaved Graphs…"); onTriggered: { offerRecovery(); if (!recoverBox.opened) showInformation(qsTr("Nothing to recover"), qsTr("No editor ended with unsaved changes.")) } }
    Shortcut { sequence: "?"; enabled: canvas.activeFocus; onActivated: help.open() }
    Action {
        id: recordWireAction
        readonly property string wire: document.selection.wires.length === 1 ? document.selection.wires[0] : ""
        text: { document.revision; return wire.length && document.recorderOf(wire).length ? qsTr("Stop &Recording Wire") : qsTr("&Record Wire") }
        shortcut: "Ctrl+R"
        enabled: wire.length > 0
        onTriggered: canvas.toggleRecording(wire, Qt.point(canvas.width / 2, canvas.height / 2))
    }
    Action { id: archiveAction; text: qsTr("Open &Archive…"); onTriggered: { bottomTabs.currentIndex = 5; archivePanel.chooseFile() } }
    // The interval chosen on an Archive tab lane: replay it, or show its localization events.
    Action { id: replayIntervalAction; text: qsTr("Re&play Archive Interval"); shortcut: "Ctrl+Shift+P"; enabled: archivePanel.canReplay; onTriggered: archivePanel.replayChosen() }
    Action { id: pastEventsAction; text: qsTr("Show Archived &Events in Localization"); shortcut: "Ctrl+Shift+L"; enabled: archivePanel.canShowPast; onTriggered: archivePanel.showChosenInLocalization() }

    menuBar: MenuBar {
        AppMenu {
            title: qsTr("&File")
            AppMenuItem { action: newAction }
            AppMenuItem { action: newWindowAction }
            AppMenuItem { action: openAction }
            AppMenu {
                id: recentMenu
                title: qsTr("Open &Recent")
                enabled: recent.paths.length > 0
                Instantiator {
                    model: recent.paths
                    delegate: AppMenuItem {
                        required property string modelData
                        text: modelData
                        onTriggered: whenSaved(() => openFile(modelData))
                    }
                    onObjectAdded: (index, object) => recentMenu.insertItem(index, object)
                    onObjectRemoved: (index, object) => recentMenu.removeItem(object)
                }
                MenuSeparator {}
                AppMenuItem { text: qsTr("Clear List"); onTriggered: recent.clear() }
            }
            AppMenu {
                id: samplesMenu
                objectName: "samplesMenu"
                title: qsTr("Sa&mples")
                Instantiator {
                    model: samples.samples.filter(s => s.group.length === 0)
                    delegate: AppMenuItem {
                        required property var modelData
                        text: modelData.title
                        onTriggered: whenSaved(() => openFile(modelData.path))
                    }
                    onObjectAdded: (index, object) => samplesMenu.insertItem(index, object)
                    onObjectRemoved: (index, object) => samplesMenu.removeItem(object)
                }
                MenuSeparator {}
                AppMenu {
                    id: benchmarksMenu
                    title: qsTr("&Benchmarks")
                    Instantiator {
                        model: samples.samples.filter(s => s.group.length > 0)
                        delegate: AppMenuItem {
                            required property var modelData
                            text: modelData.title
                            onTriggered: whenSaved(() => openFile(modelData.path))
                        }
                        onObjectAdded: (index, object) => benchmarksMenu.insertItem(index, object)
                        onObjectRemoved: (index, object) => benchmarksMenu.removeItem(object)
                    }
                }
            }
            MenuSeparator {}
            AppMenuItem { action: saveAction }
            AppMenuItem { action: saveAsAction }
            AppMenuItem { action: recoverAction }
            MenuSeparator {}
            AppMenuItem { action: archiveAction }
            AppMenuItem { action: replayIntervalAction }
            AppMenuItem { action: pastEventsAction }
            MenuSeparator {}
            AppMenuItem { action: quitAction }
        }
        AppMenu {
            title: qsTr("&Edit")
            AppMenuItem { action: undoAction }
            AppMenuItem { action: redoAction }
            MenuSeparator {}
            AppMenuItem { action: cutAction }
            AppMenuItem { action: copyAction }
            AppMenuItem { action: pasteAction }
            AppMenuItem { action: duplicateAction }
            AppMenuItem { action: deleteAction }
            MenuSeparator {}
            AppMenuItem { action: selectAllAction }
            AppMenuItem { action: layoutAction }
            MenuSeparator {}
            AppMenuItem { action: subgraphs.group }
            AppMenuItem { action: subgraphs.ungroup }
            AppMenuItem { action: subgraphs.openSubgraph }
            MenuSeparator {}
            AppMenuItem { action: recordWireAction }
        }
        AppMenu {
            title: qsTr("&View")
            AppMenuItem { action: fitAction }
            AppMenuItem { action: zoomInAction }
            AppMenuItem { action: zoomOutAction }
            AppMenuItem { action: zoomResetAction }
            MenuSeparator {}
            AppMenuItem { action: snapAction }
            AppMenuItem { action: minimapAction }
            AppMenuItem { action: liveValuesAction }
            AppMenuItem { action: darkAction }
            MenuSeparator {}
            AppMenuItem { action: paletteSearchAction }
        }
        AppMenu {
            title: qsTr("&Run")
            AppMenuItem { action: runAction }
            AppMenuItem { action: stopAction }
            AppMenuItem { action: restartAction }
            AppMenuItem {
                objectName: "ranksMenuItem"
                action: ranksAction
                unavailable: window.ranksRefusal.length > 0
                ToolTip.visible: hovered && unavailable
                ToolTip.text: window.ranksRefusal
                ToolTip.delay: 300
            }
            AppMenuItem { objectName: "followMenuItem"; action: followAction }
            AppMenuItem { action: reloadPluginsAction }
            MenuSeparator {}
            AppMenuItem { action: compareAction }
            AppMenuItem { action: probesAction }
        }
        AppMenu {
            title: qsTr("&Help")
            AppMenuItem { action: helpAction }
        }
    }

    header: ToolBar {
        implicitHeight: 42
        background: Rectangle { color: Theme.panel; Rectangle { anchors.bottom: parent.bottom; width: parent.width; height: 1; color: Theme.border } }
        RowLayout {
            anchors.fill: parent
            anchors.leftMargin: 8
            anchors.rightMargin: 8
            spacing: 4
            IconButton { iconName: "file"; tip: qsTr("New (Ctrl+N)"); onClicked: newAction.trigger() }
            IconButton { iconName: "folder"; tip: qsTr("Open (Ctrl+O)"); onClicked: openAction.trigger() }
            IconButton { iconName: "save"; tip: qsTr("Save (Ctrl+S)"); onClicked: saveAction.trigger() }
            ToolSeparator {}
            IconButton { iconName: "undo"; tip: undoAction.text.replace("&", "") + " (Ctrl+Z)"; enabled: document.canUndo; onClicked: document.undo() }
            IconButton { iconName: "redo"; tip: redoAction.text.replace("&", "") + " (Ctrl+Shift+Z)"; enabled: document.canRedo; onClicked: document.redo() }
            ToolSeparator {}
            IconButton { iconName: "layout"; tip: qsTr("Auto-layout (Ctrl+L)"); enabled: document.nodeCount > 0; onClicked: layoutAction.trigger() }
            IconButton { iconName: "fit"; tip: qsTr("Fit to view (F)"); onClicked: canvas.fitToView(false) }
            IconButton { iconName: "grid"; tip: qsTr("Snap to grid (G)"); checkable: true; checked: viewSettings.snap; onToggled: viewSettings.snap = checked }
            IconButton { iconName: "map"; tip: qsTr("Minimap"); checkable: true; checked: viewSettings.minimap; onToggled: viewSettings.minimap = checked }
            Item { Layout.fillWidth: true }

            Text { text: qsTr("Scheduler"); color: Theme.textDim; font.pixelSize: Theme.smallFontSize }
            ComboBox {
                id: schedulerBox
                objectName: "runScheduler"
                Layout.preferredWidth: 150
                model: document.schedulers().map(s => s.name)
                currentIndex: Math.max(0, model.indexOf(document.schedulerName))
                Connections {
                    target: document
                    function onGraphFieldsChanged() { schedulerBox.currentIndex = Math.max(0, schedulerBox.model.indexOf(document.schedulerName)) }
                }
                onActivated: (index) => {
                    document.setScheduler(model[index])
                    if (run.running) run.restartWith("")
                }
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Switching while running restarts the graph from the same input under the new scheduler")
            }
            IconButton {
                objectName: "runButton"
                iconName: "play"
                text: qsTr("Run")
                iconColor: enabled ? Theme.success : Theme.textFaint
                tip: qsTr("Run the graph (F5)")
                enabled: !run.running
                onClicked: runAction.trigger()
            }
            IconButton {
                objectName: "stopButton"
                iconName: "stop"
                text: qsTr("Stop")
                iconColor: enabled ? Theme.error : Theme.textFaint
                tip: qsTr("Stop (Shift+F5)")
                enabled: run.running
                onClicked: run.stopAll()
            }
            IconButton {
                visible: run.restartNeeded
                iconName: "redo"
                text: qsTr("Restart")
                iconColor: Theme.warning
                tip: qsTr("The graph changed since it started; restart to apply")
                onClicked: run.restartWith("")
            }
            ToolSeparator {}
            IconButton { iconName: "moon"; tip: qsTr("Dark theme"); checkable: true; checked: viewSettings.dark; onToggled: viewSettings.dark = checked }
            IconButton { iconName: "keyboard"; tip: qsTr("Keyboard shortcuts (F1)"); onClicked: help.open() }
        }
    }

    footer: StatusBar { document: document; run: run; zoom: canvas.zoom }

    SplitView {
        id: mainSplit
        anchors.fill: parent
        orientation: Qt.Horizontal
        handle: SplitHandleBar { vertical: true }
        onResizingChanged: if (!resizing) viewSettings.mainSplit = saveState()

        PalettePanel {
            id: palettePanel
            SplitView.preferredWidth: 230
            SplitView.minimumWidth: 180
            onAddRequested: (typeName) => addNodeAtCentre(typeName)
        }

        SplitView {
            id: centerSplit
            SplitView.fillWidth: true
            orientation: Qt.Vertical
            handle: SplitHandleBar { objectName: "centerSplitHandle" }
            onResizingChanged: if (!resizing) viewSettings.centerSplit = saveState()  // remembered at once, not only on closing

            GraphCanvas {
                id: canvas
                objectName: "canvas"
                SplitView.fillHeight: true
                SplitView.minimumHeight: 200
                document: document
                run: run
                probeLayout: probeLayout
                snapToGrid: viewSettings.snap
                showMinimap: viewSettings.minimap
                showLiveValues: viewSettings.liveValues
                focus: true
                onQuickAddRequested: (sx, sy, cx, cy) => quickAdd.openAt(sx, sy, cx, cy)
                onNodeActivated: (nodeId) => { if (!subgraphs.open(nodeId)) inspectorPanel.forceActiveFocus() }
                onProbeDocked: bottomTabs.currentIndex = 4  // the Probes tab shows it
            }

            Rectangle {  // the bottom panel: drag the handle above it to share the height with the canvas
                objectName: "bottomPanel"
                SplitView.preferredHeight: 290
                SplitView.minimumHeight: 120
                color: Theme.panelAlt
                ColumnLayout {
                    anchors.fill: parent
                    spacing: 0
                    TabBar {
                        id: bottomTabs
                        Layout.fillWidth: true
                        currentIndex: viewSettings.bottomTab
                        onCurrentIndexChanged: viewSettings.bottomTab = currentIndex
                        // The Localization tab hides for graphs that do not localize: never stay on it then.
                        function leaveHiddenTab() { if (currentIndex === 3 && !run.localization.available) currentIndex = 0 }
                        Component.onCompleted: leaveHiddenTab()
                        Connections { target: run.localization; function onOutputsChanged() { bottomTabs.leaveHiddenTab() } }
                        background: Rectangle { color: Theme.panelHeader; Rectangle { anchors.bottom: parent.bottom; width: parent.width; height: 1; color: Theme.border } }
                        TabLabel { text: qsTr("Live plots") }
                        TabLabel { objectName: "problemsTab"; text: document.problems.count ? qsTr("Problems (%1)").arg(document.problems.summary) : qsTr("Problems") }
                        TabLabel { text: qsTr("Compare schedulers") }
                        TabLabel { objectName: "localizationTab"; text: qsTr("Localization"); visible: run.localization.available; width: visible ? implicitWidth : 0 }
                        TabLabel { objectName: "probesTab"; text: probeLayout.dockedCount(run.probes) ? qsTr("Probes (%1)").arg(probeLayout.dockedCount(run.probes)) : qsTr("Probes") }
                        TabLabel { objectName: "archiveTab"; text: qsTr("Archive") }
                    }
                    StackLayout {
                        Layout.fillWidth: true
                        Layout.fillHeight: true
                        currentIndex: bottomTabs.currentIndex
                        PlotsPanel { document: document; run: run }
                        ProblemsPanel {
                            document: document
                            run: run
                            onProblemActivated: (nodeId) => { document.selection.selectNode(nodeId); canvas.centerOn(nodeId) }
                        }
                        ComparisonPanel { document: document; run: run; folder: dialogFolder() }
                        LocalizationPanel { objectName: "localizationPanel"; run: run }
                        ProbeDock { run: run; layout: probeLayout }
                        ArchivePanel {
                            id: archivePanel
                            objectName: "archivePanel"
                            document: document
                            recent: recent
                            onReplayRequested: (path, stream, type, channels, from, duration) => {
                                const p = canvas.viewCentre()
                                const id = document.replayArchive(path, stream, type, channels, from, duration, p.x - 92, p.y - 30)
                                if (!id.length) { showError(qsTr("Cannot replay %1").arg(stream), document.lastError); return }
                                canvas.centerOn(id)
                                UiLog.info("replay: " + id + " " + stream + " from " + from + " s for " + duration + " s")
                            }
                            onShowPastRequested: (path, stream, from, to) => run.localization.openPast(path, stream, from, to)
                            Connections {
                                target: run.localization
                                function onPastOpened(error) {
                                    if (error.length) { showError(qsTr("Cannot show these events in the Localization tab"), error); return }
                                    bottomTabs.currentIndex = 3
                                }
                            }
                        }
                    }
                }
            }
        }

        InspectorPanel {
            id: inspectorPanel
            objectName: "inspector"
            SplitView.preferredWidth: 290
            SplitView.minimumWidth: 220
            document: document
            running: run.running
        }
    }

    QuickAddPopup {
        id: quickAdd
        parent: canvas
        onChosen: (typeName, cx, cy) => {
            const spot = document.freeSpot(typeName, canvas.snapped(cx), canvas.snapped(cy - 15))
            const id = document.addNode(typeName, spot.x, spot.y)
            canvas.completePendingWire(id)
            canvas.forceActiveFocus()
            UiLog.info("node added: " + id)
            canvas.logNode(id)
        }
        onDismissed: { canvas.completePendingWire(""); canvas.forceActiveFocus() }
    }
    HelpOverlay { id: help }
    PluginReloadToast { parent: canvas }
    SubgraphActions {
        id: subgraphs
        document: document
        recent: recent
        onFailed: (message) => showError(qsTr("Subgraph"), message)
    }

    FilePicker {
        id: openDialog
        title: qsTr("Open graph")
        mode: "open"
        recent: recent
        filters: [{label: qsTr("Isochron graphs (*.isograph.json)"), patterns: ["*.isograph.json"]},
                  {label: qsTr("JSON (*.json)"), patterns: ["*.json"]}, {label: qsTr("All files"), patterns: []}]
        places: [{label: qsTr("Samples"), path: samples.folder}]
        onFileChosen: (path) => openFile(path)
    }
    FilePicker {
        id: telemetryDialog
        objectName: "telemetryDialog"
        title: qsTr("Follow telemetry file")
        mode: "open"
        recent: recent
        filters: [{label: qsTr("Telemetry (*.jsonl)"), patterns: ["*.jsonl"]}, {label: qsTr("All files"), patterns: []}]
        onFileChosen: (path) => {
            bottomTabs.currentIndex = 0
            if (!run.followTelemetry(path)) showError(qsTr("Cannot follow %1").arg(path), run.message)
        }
    }
    FilePicker {
        id: saveDialog
        property var then: null
        title: qsTr("Save graph as")
        mode: "save"
        recent: recent
        defaultSuffix: ".isograph.json"
        filters: [{label: qsTr("Isochron graphs (*.isograph.json)"), patterns: ["*.isograph.json"]}, {label: qsTr("All files"), patterns: []}]
        onFileChosen: (path) => saveTo(path, then)
    }
    MessageBox {
        id: unsavedBox
        objectName: "unsavedBox"
        title: qsTr("Unsaved changes")
        text: qsTr("Save the changes to %1?").arg(document.displayName)
        informativeText: qsTr("Your changes are lost if you do not save them.")
        buttons: [{text: qsTr("Save"), role: "accept", isDefault: true}, {text: qsTr("Don't Save"), role: "discard", destructive: true}, {text: qsTr("Cancel"), role: "reject"}]
        onChosen: (role) => {
            const action = pendingAction
            pendingAction = null
            if (role === "accept") save(action)
            else if (role === "discard" && action) action()
        }
    }
    MessageBox { id: errorBox; objectName: "errorBox"; title: qsTr("Error") }
    MessageBox { id: infoBox; objectName: "infoBox"; title: qsTr("Information") }
    RecoverBox {
        id: recoverBox
        onRecoverRequested: (entry) => recover(entry)
        onDiscardRequested: (entry) => recovery.discard(entry.id)
    }

    // What happens, on the isochron.ui logging category (GUI tests wait for these lines).
    Connections {
        target: run
        property int second: 0
        function onStatsChanged() {
            if (Math.floor(run.elapsed) > second) { second = Math.floor(run.elapsed); UiLog.info("run: " + second + " s") }
        }
        function onStateChanged() {
            if (run.state === "starting") second = 0
            if (run.state === "failed" && run.followedFile.length)
                showError(run.schedulerText.startsWith("mpirun") ? qsTr("The run on MPI ranks failed") : qsTr("Cannot follow the telemetry file"), run.message)
            UiLog.info("run: " + run.state + (run.schedulerText.length ? " · " + run.schedulerText : ""))
        }
        function onProbesChanged() { UiLog.info("probes: " + run.probes.map(p => p.kind + " " + p.wire).join(", ")) }
    }
    Connections {
        target: document
        function onHistoryChanged() { UiLog.info("history: " + document.nodeCount + " nodes, " + document.edges.rowCount() + " wires; undo '" + document.undoText + "', redo '" + document.redoText + "'") }
    }
}
