// The rough edges a new user hit, each checked in the real editor window: the inspector after undo,
// the graph name field, Escape on the shortcut sheet, menus wide enough and one click to reopen, ports without "in in",
// new nodes beside (not on) others, only fitting probes offered, probe cards that keep the wheel,
// waterfall and level probes joining a running graph,
// live labels off the nodes (with watermark lags and skew on the fusion sample), nothing of the last
// graph left after opening another, the own file dialog (Save label, typed absolute path, Enter,
// overwrite question, new folders), probe cards off the nodes, a Run refused with its cause shown, the
// Problems tab and the status bar counting problems and warnings alike, an item
// source's input rate in items/s, the scheduler list showing the comparison that runs, the
// comparison table's last column reachable at 1280 and 1440 px.
import QtQuick
import QtTest

TestCase {
    id: test
    name: "RoughEdges"
    when: windowShown

    property var window: null
    property var document: window ? window.graphDocument : null
    property var canvas: window ? window.graphCanvas : null
    property var run: window ? window.runController : null

    function init() {
        const component = Qt.createComponent("qrc:/qt/qml/Isochron/Ui/qml/Main.qml")
        verify(component.status === Component.Ready, component.errorString())
        window = component.createObject(null, {width: 1500, height: 950})
        verify(window)
        waitForRendering(window.contentItem)
    }
    function cleanup() {
        run.stopAll()
        tryVerify(() => !run.running, 20000)
        document.newGraph()
        window.width = 1500  // the window keeps its size in the settings: the next test's starts as this one's did
        window.height = 950
        window.close()
        window.destroy()
        window = null
    }
    /// The window's root item: the content and the overlay popups live under it.
    function root() { return window.contentItem.parent }
    function findAll(item, name, found) {
        found = found || []
        if (!item) return found
        if (item.objectName === name) found.push(item)
        const children = item.children || []
        for (let i = 0; i < children.length; ++i) findAll(children[i], name, found)
        return found
    }

    function test_inspectorShowsTheValueAfterUndoAndRedo() {
        document.addNode("generators.signal_generator", 0, 0)
        waitForRendering(window.contentItem)
        const fields = findAll(window.contentItem, "parameterField")
        const field = fields.find(f => f.text === "1000.0")  // frequency
        verify(field, "the frequency field")
        mouseClick(field)
        keyClick(Qt.Key_A, Qt.ControlModifier)
        keyClick(Qt.Key_5); keyClick(Qt.Key_0); keyClick(Qt.Key_0)
        keyClick(Qt.Key_Return)
        compare(document.parametersOf("signal_generator").find(p => p.name === "frequency").text, "500.0")
        canvas.forceActiveFocus()
        keyClick(Qt.Key_Z, Qt.ControlModifier)
        tryCompare(field, "text", "1000.0")
        keyClick(Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
        tryCompare(field, "text", "500.0")
    }

    function test_graphNameFieldShowsItsStart() {
        document.graphName = "A rather long name for a graph that does not fit the inspector's field at all, not even close"
        const field = findChild(window, "graphNameField")
        verify(field)
        compare(field.cursorPosition, 0)
        mouseClick(field)
        keyClick(Qt.Key_End)
        keyClick("x")
        canvas.forceActiveFocus()
        tryCompare(field, "cursorPosition", 0)
        verify(document.graphName.endsWith("closex"))
    }

    function test_escapeClosesTheShortcutSheet() {
        canvas.forceActiveFocus()
        keyClick(Qt.Key_F1)
        const help = findChild(window, "helpOverlay")
        tryVerify(() => help.opened)
        keyClick(Qt.Key_Escape)
        tryVerify(() => !help.opened)
    }

    function test_menusFitTheirItems() {
        document.addNode("generators.signal_generator", 0, 0)
        document.addNode("io.null_sink", 300, 0)
        document.connectPorts("signal_generator", "out", "null_sink", "in")
        const bar = window.menuBar
        for (let m = 0; m < bar.count; ++m) {
            const menu = bar.menuAt(m)
            menu.open()
            tryVerify(() => menu.opened)
            for (let i = 0; i < menu.count; ++i) {
                const item = menu.itemAt(i)
                if (item && item.visible && item.implicitWidth) verify(item.width >= item.implicitWidth, menu.title + " cuts off " + item.text)
                if (item && item.action && item.action.shortcut) verify(item.shortcutText.length > 0, item.text + " shows its shortcut")
            }
            menu.close()
            tryVerify(() => !menu.opened)
        }
    }

    function test_aMenuClosedByEscapeOpensAgainWithOneClick() {
        const bar = window.menuBar
        for (let m = 0; m < 2; ++m) {  // File, then Edit: the second menu is not the bar's first state
            const title = bar.itemAt(m)
            const menu = bar.menuAt(m)
            title.hoverEnabled = true  // as on a desktop with a mouse (the offscreen platform has no hover)
            mouseMove(title, title.width / 2, title.height / 2)
            verify(title.hovered)
            mouseClick(title)
            tryVerify(() => menu.opened)
            keyClick(Qt.Key_Escape)
            tryVerify(() => !menu.visible)
            mouseClick(title)  // the pointer never left the title
            tryVerify(() => menu.opened, 1000, menu.plainTitle + " opens again with one click")
            mouseClick(title)  // and a click on its title still closes it
            tryVerify(() => !menu.visible)
        }
    }

    function test_inspectorListsPortsByDirectionOnce() {
        document.addNode("segments.rewindow", 0, 0)
        waitForRendering(window.contentItem)
        const ports = findAll(window.contentItem, "inspectorPort").map(t => t.text)
        compare(ports, ["in", "out"])
    }

    function test_newNodesLandBesideOthers() {
        window.addNodeAtCentre("spectral.fft")
        window.addNodeAtCentre("spectral.fft")
        window.addNodeAtCentre("spectral.fft")
        const ids = ["fft", "fft_2", "fft_3"]
        for (let a = 0; a < 3; ++a) {
            for (let b = a + 1; b < 3; ++b) {
                const p = document.nodes.get(ids[a]), q = document.nodes.get(ids[b])
                const apart = p.posX + p.boxWidth <= q.posX || q.posX + q.boxWidth <= p.posX || p.posY + p.boxHeight <= q.posY || q.posY + q.boxHeight <= p.posY
                verify(apart, ids[a] + " and " + ids[b] + " overlap")
            }
        }
    }

    function test_onlyFittingProbesAreOffered() {
        window.openFile(sourceDirectory + "/samples/spectrum-watch.isograph.json")
        const kinds = (wire) => run.probeKindsFor(wire).filter(k => k.fits).map(k => k.name)
        compare(kinds("sweep.out>windows.in"), ["scope", "spectrum", "waterfall", "level"])
        compare(kinds("windows.out>fft.in"), ["scope", "spectrum", "waterfall", "level"])  // windows are signals
        compare(kinds("magnitude.magnitude>band.in"), ["scope"])      // frames
        compare(kinds("fft.spectrum>magnitude.spectrum"), [])         // complex frames
        compare(kinds("detector.events>events.in"), [])  // time ranges
        const menu = findChild(canvas, "wireMenu")
        menu.wireKey = "magnitude.magnitude>band.in"
        menu.popup(100, 100)
        tryVerify(() => menu.opened)
        const texts = []
        for (let i = 0; i < menu.count; ++i) if (menu.itemAt(i) && menu.itemAt(i).visible && menu.itemAt(i).text) texts.push(menu.itemAt(i).text)
        compare(texts, ["Probe: scope", "Record this wire (Ctrl+R)", "Delete wire"])
        menu.close()
    }

    function test_probeCardKeepsTheWheelAndMoves() {
        window.openFile(sourceDirectory + "/samples/spectrum-watch.isograph.json")
        canvas.zoomAt(canvas.width / 2, canvas.height / 2, 0.35)  // room for the card beside the graph
        compare(run.addProbe("sweep.out>windows.in", "spectrum"), "")
        waitForRendering(window.contentItem)
        const card = findAll(canvas, "probeCard").find(c => c.visible)
        verify(card)
        const zoom = canvas.zoom
        mouseWheel(card, card.width / 2, card.height / 2, 0, -240)
        compare(canvas.zoom, zoom)
        const x = card.x
        mouseDrag(canvas, card.x + 120, card.y + 10, 80, 0)
        tryVerify(() => Math.abs(card.x - (x + 80)) <= 2, 20000, "dragged by its title")
        mouseClick(findChild(card, "probeCollapse"))
        tryVerify(() => card.height < 40)
        mouseClick(findChild(card, "probeDock"))
        tryVerify(() => !card.visible)
        compare(run.probes.length, 1)
    }

    function test_waterfallAndLevelProbesJoinARunningGraph() {
        window.openFile(sourceDirectory + "/samples/spectrum-watch.isograph.json")
        run.start()
        tryCompare(run, "state", "running", 20000)
        compare(run.addProbe("sweep.out>windows.in", "waterfall"), "")
        compare(run.addProbe("sweep.out>windows.in", "level"), "")
        window.bottomTab = 4  // docked or floating, the cards draw
        let waterfall = null, meter = null
        tryVerify(() => {
            waterfall = findAll(root(), "waterfallPlot").find(p => p.hasData) || null
            meter = findAll(root(), "levelMeterPlot").find(p => p.hasData) || null
            return waterfall !== null && meter !== null
        }, 8000, "both probes show data")
        const rows = waterfall.filledRows
        tryVerify(() => waterfall.filledRows > rows, 20000, "the waterfall scrolls")
        verify(waterfall.historySeconds > 0)
        compare(waterfall.xTo, 8000)  // half the sweep's 16 kHz rate
        // The sweep is a chirp of amplitude 0.5: RMS 20 log10(0.5 / sqrt 2), samples' peak at most 20 log10(0.5).
        tryVerify(() => Math.abs(meter.rmsDecibels - 20 * Math.log10(0.5 / Math.SQRT2)) < 0.2, 20000, "RMS " + meter.rmsDecibels)
        verify(meter.peakDecibels <= 20 * Math.log10(0.5) + 0.01 && meter.peakDecibels > 20 * Math.log10(0.5) - 1, "peak " + meter.peakDecibels)
        verify(meter.heldDecibels >= meter.peakDecibels)
        compare(run.telemetry.runCount, 1)  // adding probes never restarted the run
    }

    /// Whether the card's rectangle on screen overlaps a node of the canvas.
    function cardCoversANode(card) {
        const a = card.mapToItem(canvas.world, 0, 0), b = card.mapToItem(canvas.world, card.width, card.height)
        return document.nodes.nodesIn(a.x, a.y, b.x - a.x, b.y - a.y).length > 0
    }

    function test_newProbeCardsCoverNoNode() {
        window.openFile(sourceDirectory + "/samples/spectrum-watch.isograph.json")
        const wires = ["sweep.out>windows.in", "band.score>detector.score", "noise.out>noise_windows.in"]
        const kinds = ["spectrum", "scope", "spectrum"]
        for (const zoom of [canvas.zoom, 0.35]) {  // fitted (no room: they dock), then zoomed out (room)
            canvas.zoomAt(canvas.width / 2, canvas.height / 2, zoom)
            for (let i = 0; i < wires.length; ++i) compare(run.addProbe(wires[i], kinds[i]), "")
            waitForRendering(window.contentItem)
            tryVerify(() => run.probes.every(p => canvas.probeLayout.stateOf(p.key).docked || canvas.probeLayout.stateOf(p.key).x >= 0), 20000, "every card placed")
            const cards = findAll(canvas, "probeCard").filter(c => c.visible)
            for (const card of cards) verify(!cardCoversANode(card), "a probe card over a node at " + card.x + "," + card.y)
            if (zoom === 0.35) verify(cards.length >= 1, "a card floats where there is room")
            else if (cards.length < wires.length) compare(window.bottomTab, 4)  // the docked ones are shown
            for (const probe of run.probes.slice()) run.removeProbe(probe.key)
        }
    }

    function test_liveLabelsStayOffTheNodes() {
        window.openFile(sourceDirectory + "/samples/spectrum-watch.isograph.json")
        run.start()
        tryCompare(run, "state", "running", 20000)
        let labels = []
        tryVerify(() => { labels = findAll(canvas, "liveLabel").filter(l => l.visible && l.parent.visible); return labels.length >= 8 }, 20000, "rates on the wires")
        const boxes = []
        const ids = ["sweep", "windows", "fft", "magnitude", "band", "detector", "events", "spectra", "noise", "noise_windows", "loud", "loud_windows"]
        for (const id of ids) {
            const n = document.nodes.get(id)
            if (n.nodeId !== undefined) boxes.push(Qt.rect(n.posX, n.posY, n.boxWidth, n.boxHeight))
        }
        for (const label of labels) {
            const a = label.mapToItem(canvas.world, 0, 0), b = label.mapToItem(canvas.world, label.width, label.height)
            for (const box of boxes) {
                const apart = b.x <= box.x || box.x + box.width <= a.x || b.y <= box.y || box.y + box.height <= a.y
                verify(apart, "a live label over a node at " + box.x + "," + box.y)
            }
        }
    }

    function test_wiresShowWatermarkLagAndTheJoinItsSkew() {
        window.openFile(sourceDirectory + "/samples/fusion-two-arrays.isograph.json")
        compare(document.setParameter("a", "pace", 1), "")  // in real time, so the run lasts a few seconds
        compare(document.setParameter("b", "pace", 1), "")
        run.start()
        let lagging = []
        tryVerify(() => {
            lagging = findAll(canvas, "liveLabel").filter(l => l.visible && l.parent.visible && l.children[0].text.indexOf("wm −") >= 0)
            return lagging.length >= 2
        }, 10000, "watermark lags on the wires")
        tryVerify(() => findAll(canvas, "skewPill").some(p => p.visible && p.children[0].text.indexOf("skew ") === 0), 20000, "the join shows its inputs' skew")
        for (const label of lagging) {
            const a = label.mapToItem(canvas.world, 0, 0), b = label.mapToItem(canvas.world, label.width, label.height)
            compare(document.nodes.nodesIn(a.x, a.y, b.x - a.x, b.y - a.y), [], "a label over a node: " + label.children[0].text)
        }
    }

    /// Every plot of the bottom panel's current tab reads well: whole titles, a legend above (never
    /// on) its plot, value labels apart.
    function plotsReadable(where) {
        const titles = findAll(window.contentItem, "plotTitle").filter(t => t.visible)
        verify(titles.length > 0, where + ": plots shown")
        for (const t of titles) tryVerify(() => !t.truncated, 20000, where + ": title cut off: " + t.text)
        for (const card of findAll(window.contentItem, "plotCard").filter(c => c.visible)) {
            const name = where + ", " + findChild(card, "plotTitle").text
            const legend = findChild(card, "plotLegendRow"), area = findChild(card, "plotArea")
            verify(area.height >= 40, name + ": a plot " + area.height + " px high")
            if (legend.visible) verify(legend.mapToItem(card, 0, legend.height).y <= area.mapToItem(card, 0, 0).y, name + ": the legend reaches into the plot")
            const ticks = findAll(card, "plotTick").filter(t => t.visible).sort((a, b) => a.y - b.y)
            for (let i = 1; i < ticks.length; ++i) verify(ticks[i].y - ticks[i - 1].y >= ticks[i].height, name + ": value labels " + ticks[i - 1].text + " and " + ticks[i].text + " overlap")
        }
    }

    function test_plotCardsAreReadableAt1440And1920() {
        window.openFile(sourceDirectory + "/samples/spectrum-watch.isograph.json")
        run.start()
        tryVerify(() => run.telemetry.nodes.length === 12 && run.telemetry.latest("engine/memory_mib") > 0, 20000, "telemetry of every operator")
        for (const size of [[1440, 880], [1920, 1080]]) {
            window.width = size[0]
            window.height = size[1]
            for (const tab of [0, 2]) {  // Live plots, Compare schedulers
                window.bottomTab = tab
                waitForRendering(window.contentItem)
                plotsReadable(size.join("×") + ", tab " + tab)
            }
        }
        // Every operator is in the per-operator legends, not only the busiest few.
        window.bottomTab = 0
        const queued = findAll(window.contentItem, "plotCard").find(c => findChild(c, "plotTitle").text === "Queued items per operator")
        compare(findChild(queued, "legendColumn").count, 12)
    }

    function test_anItemSourceIsCountedInItemsPerSecond() {
        // The status bar said "input 0 samples/s" for a source sending a thousand tuples a second.
        document.addNode("workload.tuple_source", 0, 0)
        document.addNode("io.null_sink", 300, 0)
        compare(document.connectPorts("tuple_source", "out0", "null_sink", "in"), "")
        verify(run.start())
        tryVerify(() => run.inputItemsPerSecond > 0, 20000)
        const rate = findChild(window, "inputRate")
        verify(run.inputItemsOnly)
        verify(/^input [0-9.]+ k?items\/s$/.test(rate.text), rate.text)
    }

    function test_theSchedulerListShowsTheComparisonThatRuns() {
        // `isochron GRAPH --compare df,fifo,qos` ran those three while the list had rtc ticked too.
        document.addNode("workload.tuple_source", 0, 0)
        document.addNode("io.null_sink", 300, 0)
        compare(document.connectPorts("tuple_source", "out0", "null_sink", "in"), "")
        run.compare(["df", "fifo", "qos:burst=4"], 0.2)
        window.bottomTab = 2  // Compare schedulers: the tab with the list
        const list = findChild(window, "schedulerList")
        const ticked = name => {  // the list is short: scroll the scheduler's box into view first
            list.positionViewAtIndex(list.model.findIndex(s => s.name === name), ListView.Contain)
            waitForRendering(list)
            return findChild(list, "schedulerCheck_" + name).checked
        }
        verify(ticked("df") && ticked("fifo") && ticked("qos"))
        verify(!ticked("rtc"))
    }

    function test_comparisonTableReachesItsLastColumnAt1280And1440() {
        // In a 1440-px window the table's right columns (queued, utility) were cut off.
        document.addNode("workload.tuple_source", 0, 0)
        document.addNode("io.null_sink", 300, 0)
        compare(document.connectPorts("tuple_source", "out0", "null_sink", "in"), "")
        run.compare(["df", "fifo"], 0.2)
        tryVerify(() => run.sequenceIndex < 0 && run.telemetry.runs().filter(r => r.summary.outputs).length === 2, 30000, "both runs summarised")
        window.bottomTab = 2  // Compare schedulers
        for (const width of [1280, 1440]) {
            window.width = width
            window.height = 880
            waitForRendering(window.contentItem)
            const box = findChild(window, "comparisonTable")
            const scroll = findChild(box, "comparisonScroll")
            tryVerify(() => findAll(box, "comparisonRow").length === 2, 5000, "a row per run")
            const headers = findAll(box, "comparisonHeader")
            const last = headers[headers.length - 1]
            compare(last.text, "utility")
            const boxRight = box.mapToItem(window.contentItem, box.width, 0).x
            verify(boxRight <= window.contentItem.width + 0.5, width + " px: the table ends at " + boxRight)
            // The last column is in view, or the table scrolls to it with its scroll bar shown.
            if (last.mapToItem(scroll, last.width, 0).x > scroll.width + 0.5) {
                verify(findChild(box, "comparisonScrollBar").visible, width + " px: no scroll bar to reach the last column")
                scroll.contentX = scroll.contentWidth - scroll.width
                waitForRendering(box)
            }
            const left = last.mapToItem(scroll, 0, 0).x, right = last.mapToItem(scroll, last.width, 0).x
            verify(left >= -0.5 && right <= scroll.width + 0.5, width + " px: utility column at " + left + ".." + right + " of " + scroll.width)
            const cells = findAll(box, "comparisonCell")
            verify(cells.length >= 14, "every cell of both rows")
            scroll.contentX = 0
        }
    }

    function test_anotherGraphLeavesNothingBehind() {
        window.openFile(sourceDirectory + "/samples/quickstart.isograph.json")
        run.start()
        tryVerify(() => run.state === "finished" || run.state === "stopped", 20000)
        const state = findChild(window, "engineState")
        verify(state.text.indexOf("·") > 0, state.text)
        window.openFile(sourceDirectory + "/samples/spectrum-watch.isograph.json")
        compare(run.state, "idle")
        compare(state.text, "idle")
        compare(run.telemetry.runCount, 0)
        compare(run.localization.events.rowCount(), 0)
    }

    function test_runThatWouldOverwriteTheGraphIsRefusedSayingWhy() {
        // Run replaced the graph file by a sink's WAV ("finished"); a run that could not start said
        // only "failed", beside "valid" and "No problems".
        document.addNode("generators.signal_generator", 0, 0)
        document.addNode("io.wav_file_sink", 240, 0)
        compare(document.connectPorts("signal_generator", "out", "wav_file_sink", "in0"), "")
        const path = temporaryDirectory + "/self-" + Date.now() + ".isograph.json"
        compare(document.setParameter("wav_file_sink", "path", path), "")
        verify(document.saveAs(path))
        verify(!run.start())
        compare(run.state, "failed")
        const state = findChild(window, "engineState")
        verify(state.text.startsWith("failed: node 'wav_file_sink' writes"), state.text)
        verify(state.text.endsWith("the graph file itself: it would be overwritten"), state.text)
        compare(findChild(window, "problemsTab").text, "Problems (1 problem)")
        verify(!document.modified)
    }

    function test_problemsTabAndStatusBarCountTheSameRows() {
        // A graph with one problem (a sink into a missing folder, refused at Run) and one warning (a
        // generator without end): the tab said "Problems (2)" and the status bar "1 problem(s)".
        document.addNode("generators.signal_generator", 0, 0)
        document.addNode("io.wav_file_sink", 240, 0)
        compare(document.connectPorts("signal_generator", "out", "wav_file_sink", "in0"), "")
        compare(document.setParameter("signal_generator", "duration", 0), "")
        compare(document.setParameter("wav_file_sink", "path", temporaryDirectory + "/missing-" + Date.now() + "/x.wav"), "")
        tryCompare(document.problems, "warningCount", 1)
        compare(findChild(window, "problemSummary").text, "valid, 1 warning")
        compare(findChild(window, "problemsTab").text, "Problems (1 warning)")
        verify(!run.start())
        compare(document.problems.errorCount, 1)
        compare(document.problems.warningCount, 1)
        compare(findChild(window, "problemSummary").text, "1 problem, 1 warning")
        compare(findChild(window, "problemsTab").text, "Problems (1 problem, 1 warning)")
    }

    function test_fileDialogSavesToATypedAbsolutePathOnEnter() {
        document.addNode("io.null_sink", 0, 0)
        const folder = temporaryDirectory + "/first-hour-" + Date.now()
        window.saveAs()
        let picker = null
        tryVerify(() => { picker = findAll(root(), "pickerName").find(p => p.activeFocus) || null; return picker !== null }, 20000, "the name field has the keys")
        const accept = findAll(root(), "pickerAccept").find(b => b.visible)
        compare(accept.text, "Save")
        // A folder that does not exist: the dialog offers to create it; cancelled, nothing is written.
        picker.text = folder + "/mine"
        keyClick(Qt.Key_Return)
        const cancel = findAll(root(), "messageButton_reject").find(b => b.visible && b.text === "Cancel")
        verify(cancel, "offers to create the folder")
        mouseClick(cancel)
        compare(document.filePath, "")
        tryVerify(() => picker.activeFocus, 20000, "back in the name field")
        // An absolute path into an empty folder: Enter saves, with the suffix added.
        picker.text = temporaryDirectory + "/mine"
        keyClick(Qt.Key_Return)
        tryCompare(document, "filePath", temporaryDirectory + "/mine.isograph.json")
        verify(!document.modified)
        // Saving over it asks first.
        document.addNode("io.null_sink", 0, 200)
        window.saveAs()
        tryVerify(() => picker.activeFocus, 20000)
        picker.text = "mine.isograph.json"
        keyClick(Qt.Key_Return)
        const replace = findAll(root(), "messageButton_accept").find(b => b.visible && b.text === "Replace")
        verify(replace, "asks before replacing")
        mouseClick(replace)
        tryVerify(() => !document.modified)
    }

    function test_saveAsCreatesTheFoldersOfATypedPath() {
        document.addNode("io.null_sink", 0, 0)
        const folder = temporaryDirectory + "/new-" + Date.now() + "/graphs/2026"
        window.saveAs()
        let picker = null
        tryVerify(() => { picker = findAll(root(), "pickerName").find(p => p.activeFocus) || null; return picker !== null }, 20000)
        picker.text = folder + "/mine"
        keyClick(Qt.Key_Return)
        const create = findAll(root(), "messageButton_accept").find(b => b.visible && b.text === "Create and Save")
        verify(create, "offers to create the folder")
        mouseClick(create)
        tryCompare(document, "filePath", folder + "/mine.isograph.json")
        verify(!document.modified)
    }

    function test_newFolderButtonMakesAFolderAndGoesIn() {
        const folder = temporaryDirectory + "/picked-" + Date.now()
        window.saveAs()
        let picker = null
        tryVerify(() => { picker = findAll(root(), "pickerName").find(p => p.activeFocus) || null; return picker !== null }, 20000)
        const newFolder = findAll(root(), "pickerNewFolder").find(b => b.visible)
        verify(newFolder, "the save dialog has New Folder")
        mouseClick(newFolder)
        const nameField = findAll(root(), "pickerNewFolderName").find(f => f.visible)
        verify(nameField && nameField.activeFocus, "asks for the name")
        nameField.text = folder
        keyClick(Qt.Key_Return)
        const shown = findAll(root(), "pickerFolder").find(t => t.visible)
        tryCompare(shown, "text", folder)
        verify(!nameField.visible)
        picker.text = "inside"
        keyClick(Qt.Key_Return)
        tryCompare(document, "filePath", folder + "/inside.isograph.json")
    }

    function test_minimapOnlyWhileTheGraphIsOutOfView() {
        window.openFile(sourceDirectory + "/samples/quickstart.isograph.json")
        const minimap = findChild(canvas, "minimap")
        canvas.fitToView(false)
        tryVerify(() => !minimap.visible, 20000, "the whole graph is in view")
        canvas.zoomAt(canvas.width / 2, canvas.height / 2, 3)
        tryVerify(() => minimap.visible, 20000, "part of the graph is out of view")
    }

    function test_openedGraphsAreFittedButReadable() {
        window.openFile(sourceDirectory + "/samples/localize-live.isograph.json")  // wider than the view
        tryVerify(() => !canvas.moving, 20000)
        compare(canvas.zoom, canvas.readableZoom)
        window.openFile(sourceDirectory + "/samples/quickstart.isograph.json")      // fits
        tryVerify(() => !canvas.moving, 20000)
        verify(canvas.zoom >= canvas.readableZoom, canvas.zoom)
        const box = document.nodes.bounds([])
        const a = canvas.toScreen(box.x, box.y), b = canvas.toScreen(box.x + box.width, box.y + box.height)
        verify(a.x >= 0 && a.y >= 0 && b.x <= canvas.width && b.y <= canvas.height, "a graph that fits is shown whole")
    }

    function test_aProbeViewThatCannotLoadSaysSo() {
        const component = Qt.createComponent("qrc:/qt/qml/Isochron/Ui/qml/ProbeCard.qml")
        verify(component.status === Component.Ready, component.errorString())
        const card = component.createObject(canvas, {probe: {key: "probe-x", kind: "waterfall", kindLabel: "Waterfall", view: "NoSuchView", label: "a.out"}, run: run})
        verify(card)
        const error = findChild(card, "probeViewError")
        tryVerify(() => error.visible)
        verify(error.text.indexOf("NoSuchView.qml") >= 0, error.text)
        card.destroy()
    }

    function test_aChosenFileNextToTheGraphStaysRelative() {
        window.openFile(sourceDirectory + "/samples/quickstart.isograph.json")
        document.selection.selectNode("microphone")
        waitForRendering(window.contentItem)
        const browse = findAll(window.contentItem, "browseButton").find(b => b.visible)
        verify(browse, "the path's … button")
        mouseClick(browse)
        let picker = null
        tryVerify(() => { picker = findAll(root(), "pickerName").find(p => p.activeFocus) || null; return picker !== null }, 20000)
        compare(picker.text, "counting-speech-16k.wav")  // the dialog starts at the current file
        picker.text = "listen-two-sources.flac"
        keyClick(Qt.Key_Return)
        const path = () => document.parametersOf("microphone").find(p => p.name === "path").text
        tryVerify(() => path() === "data/listen-two-sources.flac", 20000, path())
    }
}
