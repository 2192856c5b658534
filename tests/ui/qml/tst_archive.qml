// The archive in the real editor window: record a wire from its context menu or with Ctrl+R (one
// undo step, Ctrl+R again stops), a wire the archive cannot hold is refused with a toast, and after a
// run the Archive tab shows the stream io.archive_sink recorded, and an interval dragged on its lane
// replays through the graph. The timeline follows a growing archive without Reload; an event lane's
// interval replays the recorded events, and its localization events open in the Localization tab. The
// strip zooms around the pointer and pans (wheel, keys, shift or middle drag), and shows a new file loading.
// A signal lane paints its envelope; the playhead is placed and scrubbed on the ruler and in a lane,
// nudged with the arrow keys, and Space plays from it (or says why it cannot, headless).
import QtQuick
import QtTest

TestCase {
    id: test
    name: "Archive"
    when: windowShown

    property var window: null
    property var document: window ? window.graphDocument : null
    property var canvas: window ? window.graphCanvas : null

    function init() {
        const component = Qt.createComponent("qrc:/qt/qml/Isochron/Ui/qml/Main.qml")
        verify(component.status === Component.Ready, component.errorString())
        window = component.createObject(null, {width: 1400, height: 900})
        verify(window)
        window.openFile(sourceDirectory + "/samples/two-bands.isograph.json")
        waitForRendering(window.contentItem)
    }
    function cleanup() {
        window.runController.stopAll()
        tryVerify(() => !window.runController.running, 20000)
        document.newGraph()
        window.close()
        window.destroy()
        window = null
    }

    // Screen point (in the canvas) of a port's dot.
    function portPoint(nodeId, port, output) {
        const node = document.nodes.get(nodeId)
        const ports = output ? node.outputs : node.inputs
        for (const p of ports) {
            if (p.name === port) return canvas.toScreen(node.posX + (output ? node.boxWidth : 0), node.posY + p.offsetY)
        }
        fail("no port " + nodeId + "." + port)
    }
    // Right-click the middle of the wire from an output to an input and return the wire menu.
    function openWireMenu(fromNode, fromPort, toNode, toPort) {
        const a = portPoint(fromNode, fromPort, true), b = portPoint(toNode, toPort, false)
        mouseClick(canvas, (a.x + b.x) / 2, (a.y + b.y) / 2, Qt.RightButton)
        const menu = findChild(canvas, "wireMenu")
        tryVerify(() => menu.opened, 20000, "the wire menu opens")
        compare(menu.wireKey, fromNode + "." + fromPort + ">" + toNode + "." + toPort)
        return menu
    }

    function test_recordFromTheWireMenuAndStopWithKeys() {
        const nodes = document.nodeCount
        const menu = openWireMenu("sweep", "out", "low", "in")
        const item = findChild(menu, "recordWireItem")
        compare(item.text, "Record this wire (Ctrl+R)")
        item.triggered()
        menu.close()
        compare(document.nodeCount, nodes + 1)
        const recorder = document.recorderOf("sweep.out>low.in")
        compare(recorder, "record_sweep_out")
        compare(document.operatorOf(recorder).typeName, "io.archive_sink")
        compare(document.parametersOf(recorder).find(p => p.name === "path").value, "two-bands.archive.sqlite")
        compare(document.edges.wireInto(recorder, "in0").fromNode, "sweep")
        verify(document.valid)
        // The wire is selected (the right click chose it): Ctrl+R stops recording, Ctrl+Z brings it back.
        compare(document.selection.wires, ["sweep.out>low.in"])
        canvas.forceActiveFocus()
        keyClick(Qt.Key_R, Qt.ControlModifier)
        compare(document.nodeCount, nodes)
        compare(document.recorderOf("sweep.out>low.in"), "")
        keyClick(Qt.Key_Z, Qt.ControlModifier)
        compare(document.recorderOf("sweep.out>low.in"), "record_sweep_out")
        keyClick(Qt.Key_Z, Qt.ControlModifier)
        compare(document.nodeCount, nodes)
        verify(!document.modified)
    }

    function test_aWireTheArchiveCannotHoldIsRefused() {
        const nodes = document.nodeCount
        const menu = openWireMenu("low", "events", "low_events", "in")
        findChild(menu, "recordWireItem").triggered()
        menu.close()
        compare(document.nodeCount, nodes)
        verify(document.lastError.indexOf("time_range") >= 0, document.lastError)
        const toast = findChild(canvas, "toast")
        tryVerify(() => toast.visible, 20000, "the refusal shows at the wire")
    }

    function test_archiveTabShowsWhatARunRecorded() {
        document.setParameter("sweep", "duration", 1)
        document.setParameter("sweep", "pace", 0)
        document.selection.selectWire("sweep.out>high.in")
        canvas.forceActiveFocus()
        keyClick(Qt.Key_R, Qt.ControlModifier)
        const recorder = document.recorderOf("sweep.out>high.in")
        verify(recorder.length > 0)
        const archive = temporaryDirectory + "/isochron-tst-archive.sqlite"
        compare(document.setParameter(recorder, "path", archive), "")
        window.runController.start()
        tryCompare(window.runController, "state", "finished", 20000)

        window.bottomTab = 5
        const panel = findChild(window, "archivePanel")
        tryVerify(() => panel.visible, 20000)
        panel.timeline.open(archive)
        tryCompare(panel.timeline, "loading", false, 20000)
        compare(panel.timeline.error, "")
        compare(panel.timeline.count, 1)
        compare(panel.timeline.axisStart, 0)
        compare(panel.timeline.axisEnd, 1)  // 16000 samples at 16 kHz
        const lanes = findChild(panel, "archiveLanes")
        tryCompare(lanes, "count", 1)
        verify(findChild(panel, "archiveStatus").text.indexOf("1 stream") >= 0, findChild(panel, "archiveStatus").text)

        // Drag across the lane from a quarter to three quarters, then replay that through the graph.
        tryVerify(() => { const lane = findChild(panel, "laneScrub"); return lane && lane.width > 100 }, 20000, "the lane is shown")  // laid out after the count
        const scrub = findChild(panel, "laneScrub")
        waitForRendering(window.contentItem)
        mouseDrag(scrub, scrub.width / 4, scrub.height / 2, scrub.width / 2, 0)
        compare(panel.chosenStream, "sweep.out")
        fuzzyCompare(Math.min(panel.chosenFrom, panel.chosenTo), 0.25, 0.02)
        fuzzyCompare(Math.max(panel.chosenFrom, panel.chosenTo), 0.75, 0.02)
        const nodes = document.nodeCount
        const replay = findChild(panel, "replayButton")
        verify(replay.enabled)
        mouseClick(replay)
        compare(document.nodeCount, nodes + 1)
        compare(document.operatorOf("replay_sweep_out").typeName, "io.archive_source")
        fuzzyCompare(document.parametersOf("replay_sweep_out").find(p => p.name === "from").value, 0.25, 0.02)
        compare(document.edges.wireInto("high", "in").fromNode, "replay_sweep_out")  // the replay stands in for sweep.out
        compare(document.edges.wireInto(recorder, "in0").fromNode, "sweep")           // its recorder stays on the live output
        verify(document.valid)
    }

    function test_archiveTabOpensTheGraphsArchiveByItself() {
        // A saved graph (its archive sits beside it) records a wire with the default path and runs.
        const graph = temporaryDirectory + "/isochron-tst-auto-" + Date.now() + ".isograph.json"
        verify(document.saveAs(graph))
        document.setParameter("sweep", "duration", 1)
        document.setParameter("sweep", "pace", 0)
        document.selection.selectWire("sweep.out>high.in")
        canvas.forceActiveFocus()
        keyClick(Qt.Key_R, Qt.ControlModifier)
        verify(document.recorderOf("sweep.out>high.in").length > 0)
        const panel = findChild(window, "archivePanel")
        compare(panel.timeline.path, "")
        window.runController.start()
        tryCompare(window.runController, "state", "finished", 20000)
        // The tab, shown now, opens that archive without a click.
        window.bottomTab = 5
        tryVerify(() => panel.visible, 20000)
        tryCompare(panel.timeline, "path", panel.graphArchive(), 20000)
        tryCompare(panel.timeline, "loading", false, 20000)
        compare(panel.timeline.count, 1)
    }

    // Record one second of sweep.out into `archive` and show it in the Archive tab.
    function recordOneSecond(archive) {
        document.setParameter("sweep", "duration", 1)
        document.setParameter("sweep", "pace", 0)
        document.selection.selectWire("sweep.out>high.in")
        canvas.forceActiveFocus()
        keyClick(Qt.Key_R, Qt.ControlModifier)
        compare(document.setParameter(document.recorderOf("sweep.out>high.in"), "path", archive), "")
        window.runController.start()
        tryCompare(window.runController, "state", "finished", 20000)
        const panel = archivePanelOn(archive)
        compare(panel.timeline.axisEnd, 1)
        tryVerify(() => { const lane = findChild(panel, "laneScrub"); return lane && lane.width > 100 }, 20000, "the lane is shown")
        waitForRendering(window.contentItem)
        return panel
    }
    // The axis's tick labels, left to right.
    function axisLabels(panel) {
        const ticks = findChild(panel, "axisTicks")
        const labels = []
        for (let i = 0; i < ticks.count; ++i) labels.push(ticks.itemAt(i).children[1].text)
        return labels
    }

    function test_timelineZoomsAroundThePointerAndPans() {
        const panel = recordOneSecond(temporaryDirectory + "/isochron-tst-zoom.sqlite")
        const scrub = laneScrub(panel, "sweep.out")
        compare(panel.zoomed, false)
        compare(panel.viewStart, 0)
        compare(panel.viewEnd, 1)
        compare(findChild(panel, "viewInterval").text, "whole archive")
        const wholeLabels = axisLabels(panel)
        verify(wholeLabels.indexOf("0.5 s") >= 0, wholeLabels.join(" | "))

        // One wheel notch up at a quarter of the strip (a whole pixel): 0.7 of the span, and the time
        // under the pointer stays under it.
        const px = Math.round(scrub.width / 4)
        const pointed = px / scrub.width  // seconds, on the whole second shown
        mouseWheel(scrub, px, scrub.height / 2, 0, 120)
        verify(panel.zoomed)
        fuzzyCompare(panel.viewEnd - panel.viewStart, 0.7, 1e-9)
        fuzzyCompare(panel.viewStart + (panel.viewEnd - panel.viewStart) * pointed, pointed, 1e-9)
        // Three more notches: 0.7^4 of a second, still around the same instant.
        for (let i = 0; i < 3; ++i) mouseWheel(scrub, px, scrub.height / 2, 0, 120)
        fuzzyCompare(panel.viewEnd - panel.viewStart, Math.pow(0.7, 4), 1e-9)
        fuzzyCompare(panel.viewStart + (panel.viewEnd - panel.viewStart) * pointed, pointed, 1e-9)
        // Named to a hundredth of the view: 0.2401 s shown, from 0.1899… s.
        const named = panel.timeline.timeLabel(panel.viewStart, 0.002401) + " – " + panel.timeline.timeLabel(panel.viewEnd, 0.002401) + " (0.240 s shown)"
        compare(findChild(panel, "viewInterval").text, named)

        // A drag across half the strip now chooses half of the view, not half of the file.
        const span = panel.viewEnd - panel.viewStart, start = panel.viewStart
        mouseDrag(scrub, scrub.width / 4, scrub.height / 2, scrub.width / 2, 0)
        compare(panel.chosenStream, "sweep.out")
        fuzzyCompare(Math.min(panel.chosenFrom, panel.chosenTo), start + span / 4, span / 50)
        fuzzyCompare(Math.max(panel.chosenFrom, panel.chosenTo), start + span * 3 / 4, span / 50)
        const chosen = [panel.chosenFrom, panel.chosenTo]

        // Shift+drag pans: dragging left by a quarter of the strip shows a quarter of a view later,
        // and leaves the chosen interval alone.
        mouseDrag(scrub, scrub.width / 2, scrub.height / 2, -scrub.width / 4, 0, Qt.LeftButton, Qt.ShiftModifier)
        fuzzyCompare(panel.viewStart, start + span / 4, span / 50)
        fuzzyCompare(panel.viewEnd - panel.viewStart, span, 1e-9)
        compare([panel.chosenFrom, panel.chosenTo], chosen)
        // The middle button pans back, and a horizontal scroll moves a tenth of the view.
        mouseDrag(scrub, scrub.width / 4, scrub.height / 2, scrub.width / 4, 0, Qt.MiddleButton)
        fuzzyCompare(panel.viewStart, start, span / 50)
        const before = panel.viewStart
        mouseWheel(scrub, scrub.width / 2, scrub.height / 2, -120, 0)
        fuzzyCompare(panel.viewStart, before + span / 10, 1e-9)
        // Panning stops at the end of the file.
        for (let i = 0; i < 40; ++i) mouseWheel(scrub, scrub.width / 2, scrub.height / 2, -120, 0)  // 4 views: past the end
        fuzzyCompare(panel.viewEnd, 1, 1e-9)
        fuzzyCompare(panel.viewEnd - panel.viewStart, span, 1e-9)

        // Zoomed to a quarter second, the labels read in tenths of a second or finer, inside the view.
        const labels = axisLabels(panel)
        verify(labels.length >= 2, labels.join(" | "))
        for (const label of labels) {
            verify(/^\d\.\d+ s$/.test(label), label)
            verify(parseFloat(label) >= panel.viewStart - 1e-9 && parseFloat(label) <= panel.viewEnd + 1e-9, label)
        }

        // Zooming out past the whole file shows the whole file.
        for (let i = 0; i < 6; ++i) mouseWheel(scrub, scrub.width / 2, scrub.height / 2, 0, -120)
        compare(panel.zoomed, false)
        compare(panel.viewStart, 0)
        compare(panel.viewEnd, 1)
    }

    function test_timelineZoomKeysAndFit() {
        const panel = recordOneSecond(temporaryDirectory + "/isochron-tst-zoomkeys.sqlite")
        const scrub = laneScrub(panel, "sweep.out")
        mouseClick(scrub, scrub.width / 2, scrub.height / 2)  // the strip takes the keys
        // + and Ctrl+= halve the view around its middle. (A key the editor's own shortcuts took, as
        // Ctrl+− and F, would not reach the strip: the view would stay.)
        keyClick(Qt.Key_Plus)
        fuzzyCompare(panel.viewStart, 0.25, 1e-9)
        fuzzyCompare(panel.viewEnd, 0.75, 1e-9)
        keyClick(Qt.Key_Equal, Qt.ControlModifier)
        fuzzyCompare(panel.viewStart, 0.375, 1e-9)
        fuzzyCompare(panel.viewEnd, 0.625, 1e-9)
        // Shift+Right pans a quarter of the view (Right nudges the playhead); − and Ctrl+− double it.
        keyClick(Qt.Key_Right, Qt.ShiftModifier)
        fuzzyCompare(panel.viewStart, 0.4375, 1e-9)
        keyClick(Qt.Key_Minus, Qt.ControlModifier)
        fuzzyCompare(panel.viewEnd - panel.viewStart, 0.5, 1e-9)
        // F shows the whole file (not the canvas's fit); so does the Fit button.
        keyClick(Qt.Key_F)
        compare(panel.zoomed, false)
        compare(panel.viewStart, 0)
        compare(panel.viewEnd, 1)
        keyClick(Qt.Key_Plus)
        verify(panel.zoomed)
        mouseClick(findChild(panel, "fitArchiveButton"))
        compare(panel.zoomed, false)
        // Z shows the chosen interval with a tenth of it either side.
        mouseDrag(scrub, scrub.width * 0.4, scrub.height / 2, scrub.width * 0.1, 0)
        lanesKeyClick(panel, Qt.Key_Z)
        const width = panel.intervalTo - panel.intervalFrom
        fuzzyCompare(panel.viewStart, panel.intervalFrom - width / 10, 1e-9)
        fuzzyCompare(panel.viewEnd, panel.intervalTo + width / 10, 1e-9)
    }
    function lanesKeyClick(panel, key) {
        verify(findChild(panel, "archiveLanes").activeFocus)
        keyClick(key)
    }

    function test_signalLaneDrawsItsEnvelopeAndThePlayheadScrubs() {
        const panel = recordOneSecond(temporaryDirectory + "/isochron-tst-envelope.sqlite")
        const scrub = laneScrub(panel, "sweep.out")
        const lane = scrub.parent.parent
        const paint = findChild(lane, "lanePaint")
        // The envelope is read off the UI thread, then painted: a column for every pixel of the
        // second stored, each [min, max] of the sweep's samples there (a full-scale sine: about ±0.5).
        tryVerify(() => paint.envelopeColumns >= paint.width - 1, 20000, "the lane paints an envelope")
        compare(lane.envelope.length, 2 * Math.round(paint.width))
        let low = 0, high = 0
        for (let c = 0; c < lane.envelope.length; c += 2) { low = Math.min(low, lane.envelope[c]); high = Math.max(high, lane.envelope[c + 1]) }
        verify(low < -0.1 && high > 0.1, low + " .. " + high)
        // Zoomed in, the envelope is read again for the new view.
        mouseClick(scrub, scrub.width / 2, scrub.height / 2)
        keyClick(Qt.Key_Plus)
        tryVerify(() => lane.envelope.length === 2 * Math.round(paint.width) && paint.envelopeColumns >= paint.width - 1, 20000, "the zoomed view's envelope")

        // The ruler puts the playhead, shown in seconds; Left and Right nudge it a hundredth of the view,
        // and every move (and Space) plays: here, headless, it says why it cannot.
        keyClick(Qt.Key_F)
        const ruler = findChild(panel, "playheadRuler")
        mouseClick(ruler, ruler.width / 2, ruler.height / 2)
        verify(panel.playheadShown)
        fuzzyCompare(panel.playhead, 0.5, 1e-6)
        compare(panel.playheadStream, "sweep.out")
        verify(findChild(panel, "playheadTime").text.indexOf("0.500 s") >= 0, findChild(panel, "playheadTime").text)
        keyClick(Qt.Key_Right)
        fuzzyCompare(panel.playhead, 0.51, 1e-6)
        keyClick(Qt.Key_Left)
        keyClick(Qt.Key_Left)
        fuzzyCompare(panel.playhead, 0.49, 1e-6)
        keyClick(Qt.Key_Space)
        verify(panel.laneSignals.playing || (panel.playMessage.length > 0 && findChild(panel, "playMessage").visible), "plays from the playhead, or says why not")
        keyClick(Qt.Key_Space)
        verify(!panel.laneSignals.playing)
        // Shift+Right still pans.
        keyClick(Qt.Key_Plus)
        const start = panel.viewStart
        keyClick(Qt.Key_Right, Qt.ShiftModifier)
        fuzzyCompare(panel.viewStart, start + (panel.viewEnd - panel.viewStart) / 4, 1e-9)
        keyClick(Qt.Key_F)
        // Dragging on the ruler scrubs: the playhead follows the pointer.
        mouseDrag(ruler, ruler.width * 0.2, ruler.height / 2, ruler.width * 0.5, 0)
        fuzzyCompare(panel.playhead, 0.7, 0.02)
        // Dragging the playhead's line in a lane scrubs too.
        // (The grab follows the playhead, so the moves are given in the lane's coordinates.)
        const grab = findChild(lane, "playheadGrab")
        verify(grab.visible)
        mousePress(grab, grab.width / 2, grab.height / 2)
        for (const at of [0.6, 0.45, 0.3]) mouseMove(scrub, scrub.width * at, scrub.height / 2)
        mouseRelease(scrub, scrub.width * 0.3, scrub.height / 2)
        fuzzyCompare(panel.playhead, 0.3, 0.02)
    }

    function test_aNewArchiveShowsItIsReadNotTheLastOnesLanes() {
        const panel = recordOneSecond(temporaryDirectory + "/isochron-tst-loading.sqlite")
        const lanes = findChild(panel, "archiveLanes")
        compare(lanes.count, 1)
        // The lane caption is not cut off.
        const summary = findChild(panel, "laneSummary")
        verify(!summary.truncated, summary.text)
        // Another file: the old lanes and axis go at once, a reading notice stands in until it is read.
        panel.timeline.open(sourceDirectory + "/samples/two-bands.isograph.json")
        compare(panel.timeline.count, 0)
        compare(lanes.count, 0)
        verify(!findChild(panel, "axisTicks").parent.visible)
        const loading = findChild(panel, "archiveLoading")
        verify(panel.timeline.loading)  // the read runs on a worker thread: it has only begun
        verify(loading.visible)
        tryCompare(panel.timeline, "loading", false, 20000)
        verify(panel.timeline.error.length > 0, "a graph file is no archive")
        verify(!loading.visible)
        compare(lanes.count, 0)
    }

    function findAll(item, name, found) {
        found = found || []
        if (!item) return found
        if (item.objectName === name) found.push(item)
        const children = item.children || []
        for (let i = 0; i < children.length; ++i) findAll(children[i], name, found)
        return found
    }
    // The scrub area of the lane of `stream` in the Archive panel.
    function laneScrub(panel, stream) {
        const found = findAll(panel, "laneScrub").filter(s => s.parent.parent.name === stream)
        compare(found.length, 1, "one lane " + stream)
        return found[0]
    }
    // Open localize-file, record tracker.events with Ctrl+R into `archive`, run to the end; returns the
    // live run's bearings, oldest first, as the Localization tab got them from the tracker.
    function recordTrackerEvents(archive, withAudio) {
        window.openFile(sourceDirectory + "/samples/localize-file.isograph.json")
        waitForRendering(window.contentItem)
        if (withAudio) {  // the microphones' bus wire too, as one stream of all mics
            document.selection.selectWire("source.out*>stft.in*")
            canvas.forceActiveFocus()
            keyClick(Qt.Key_R, Qt.ControlModifier)
            const mics = document.recorderOf("source.out*>stft.in*")
            verify(mics.length > 0, "the mic wire is recorded")
            compare(document.setParameter(mics, "path", archive), "")
        }
        document.selection.selectWire("tracker.events>events.in")
        canvas.forceActiveFocus()
        keyClick(Qt.Key_R, Qt.ControlModifier)
        const recorder = document.recorderOf("tracker.events>events.in")
        compare(recorder, "record_tracker_events")
        compare(document.setParameter(recorder, "path", archive), "")
        window.runController.start()
        tryCompare(window.runController, "state", "finished", 20000)
        const events = window.runController.localization.events
        verify(events.count >= 2, "the recording holds sounds: " + events.count)
        const live = []
        for (let row = events.count - 1; row >= 0; --row) live.push({start: at(events, row, "startTime"), azimuth: at(events, row, "azimuth")})
        return live
    }
    function at(model, row, role) { return model.data(model.index(row, 0), Qt.UserRole + 1 + ["startTime", "endTime", "azimuth"].indexOf(role)) }
    // The Archive tab on `archive`, read.
    function archivePanelOn(archive) {
        window.bottomTab = 5
        const panel = findChild(window, "archivePanel")
        tryVerify(() => panel.visible, 20000)
        panel.timeline.open(archive)
        tryCompare(panel.timeline, "loading", false, 20000)
        compare(panel.timeline.error, "")
        waitForRendering(window.contentItem)
        return panel
    }

    function test_timelineFollowsAGrowingArchive() {
        document.setParameter("sweep", "duration", 1)
        document.setParameter("sweep", "pace", 0)
        document.selection.selectWire("sweep.out>high.in")
        canvas.forceActiveFocus()
        keyClick(Qt.Key_R, Qt.ControlModifier)
        const recorder = document.recorderOf("sweep.out>high.in")
        const archive = temporaryDirectory + "/isochron-tst-follow.sqlite"
        compare(document.setParameter(recorder, "path", archive), "")

        // Opened before anything is recorded: no file yet.
        window.bottomTab = 5
        const panel = findChild(window, "archivePanel")
        tryVerify(() => panel.visible, 20000)
        let loads = 0
        const counter = () => { ++loads }
        panel.timeline.loaded.connect(counter)
        panel.timeline.open(archive)
        tryCompare(panel.timeline, "loading", false, 20000)
        verify(panel.timeline.error.length > 0, "no archive yet")
        compare(panel.timeline.count, 0)

        // A run records: the lane appears, then reaches the end of the run, with no Reload.
        window.runController.start()
        tryCompare(window.runController, "state", "finished", 20000)
        tryCompare(panel.timeline, "count", 1, 20000)
        tryCompare(panel.timeline, "axisEnd", 1, 20000)
        compare(panel.timeline.error, "")
        waitForRendering(window.contentItem)

        // Choose an interval; recording another stream into the file adds its lane below, and the
        // choice, the first lane (the same delegate: the view kept its place) and the axis stay.
        const scrub = laneScrub(panel, "sweep.out")
        mouseDrag(scrub, scrub.width / 4, scrub.height / 2, scrub.width / 2, 0)
        compare(panel.chosenStream, "sweep.out")
        const from = panel.intervalFrom, to = panel.intervalTo
        const lanes = findChild(panel, "archiveLanes")
        const firstLane = lanes.itemAtIndex(0)
        compare(document.setParameter(recorder, "stream", "sweep.again"), "")
        const before = loads
        window.runController.start()
        tryCompare(window.runController, "state", "finished", 20000)
        tryCompare(panel.timeline, "count", 2, 20000)
        verify(loads > before)
        compare(panel.timeline.rowOf("sweep.out"), 0)
        compare(panel.timeline.rowOf("sweep.again"), 1)
        compare(lanes.itemAtIndex(0), firstLane)
        compare(panel.chosenStream, "sweep.out")
        compare(panel.intervalFrom, from)
        compare(panel.intervalTo, to)
        compare(panel.timeline.axisEnd, 1)
        panel.timeline.loaded.disconnect(counter)
    }

    function test_eventLaneReplaysTheRecordedEvents() {
        const archive = temporaryDirectory + "/isochron-tst-events.sqlite"
        const live = recordTrackerEvents(archive)
        const panel = archivePanelOn(archive)
        compare(panel.timeline.count, 1)
        const recordedTicks = panel.timeline.data(panel.timeline.index(0, 0), Qt.UserRole + 14)  // TicksRole
        compare(recordedTicks.length, live.length)

        // Drag across the whole event lane, replay it with the keyboard.
        const scrub = laneScrub(panel, "tracker.events")
        mouseDrag(scrub, 2, scrub.height / 2, scrub.width - 4, 0)  // from 2 px in: the edge snaps to the first event
        compare(panel.chosenKind, "events")
        compare(panel.chosenItemKind, "event")
        verify(panel.intervalFrom <= recordedTicks[0] && panel.intervalTo > recordedTicks[recordedTicks.length - 1])
        verify(findChild(panel, "replayButton").enabled, "an event lane replays")
        const nodes = document.nodeCount
        keyClick(Qt.Key_P, Qt.ControlModifier | Qt.ShiftModifier)
        compare(document.nodeCount, nodes + 1)
        const replay = "replay_tracker_events"
        compare(document.operatorOf(replay).typeName, "io.archive_source")
        compare(document.parametersOf(replay).find(p => p.name === "type").value, "event")
        const duration = document.parametersOf(replay).find(p => p.name === "duration").value
        verify(/^\d+(\.\d{1,3})?$/.test(String(duration)), "to the millisecond: " + duration)
        compare(document.edges.wireInto("events", "in").fromNode, replay)  // the replay stands in for tracker.events
        verify(document.valid)

        // Record what reaches the graph from the replay into a second archive; stop recording the live tracker.
        document.selection.selectWire("tracker.events>record_tracker_events.in0")
        canvas.forceActiveFocus()
        keyClick(Qt.Key_R, Qt.ControlModifier)
        compare(document.recorderOf("tracker.events>record_tracker_events.in0"), "")
        document.selection.selectWire(replay + ".out0>events.in")
        keyClick(Qt.Key_R, Qt.ControlModifier)
        const downstream = document.recorderOf(replay + ".out0>events.in")
        verify(downstream.length > 0)
        const replayed = temporaryDirectory + "/isochron-tst-replayed.sqlite"
        compare(document.setParameter(downstream, "path", replayed), "")
        window.runController.start()
        tryCompare(window.runController, "state", "finished", 20000)

        // The same events, at the same times, with the same bearings.
        panel.timeline.open(replayed)
        tryCompare(panel.timeline, "loading", false, 20000)
        compare(panel.timeline.error, "")
        compare(panel.timeline.count, 1)
        compare(panel.timeline.data(panel.timeline.index(0, 0), Qt.UserRole + 1), replay + ".out0")  // NameRole
        compare(panel.timeline.data(panel.timeline.index(0, 0), Qt.UserRole + 14), recordedTicks)
        const feed = window.runController.localization
        const opened = signalSpy.createObject(test, {target: feed, signalName: "pastOpened"})
        feed.openPast(replayed, replay + ".out0", 0, 1000)
        opened.wait(20000)
        compare(opened.signalArguments[0][0], "")
        compare(feed.events.count, live.length)
        for (let i = 0; i < live.length; ++i) {
            const row = live.length - 1 - i
            fuzzyCompare(at(feed.events, row, "startTime"), live[i].start, 1e-9)
            fuzzyCompare(at(feed.events, row, "azimuth"), live[i].azimuth, 1e-9)
        }
        opened.destroy()
    }

    function test_pastEventsPlayTheArchivesAudio() {
        const archive = temporaryDirectory + "/isochron-tst-past-audio.sqlite"
        recordTrackerEvents(archive, true)
        const panel = archivePanelOn(archive)
        compare(panel.timeline.count, 2)
        const scrub = laneScrub(panel, "tracker.events")
        mouseDrag(scrub, 2, scrub.height / 2, scrub.width - 4, 0)
        mouseClick(findChild(panel, "showPastButton"))
        const feed = window.runController.localization
        tryVerify(() => feed.past.length > 0 && feed.events.count > 0, 20000, "past events are shown")
        // Play finds the event's audio in the recorded mic stream: what is left to say is the output's
        // (none here, headless) and never that the archive has no audio.
        const why = feed.play(0, -1)
        verify(why.indexOf("No audio for this past event") < 0, why)
    }

    function test_localizationTabShowsArchivedEvents() {
        const archive = temporaryDirectory + "/isochron-tst-past.sqlite"
        const live = recordTrackerEvents(archive)
        const panel = archivePanelOn(archive)
        const scrub = laneScrub(panel, "tracker.events")
        // An interval between two events holds none: refused, saying so, and the view stays live.
        const ticks = panel.timeline.data(panel.timeline.index(0, 0), Qt.UserRole + 14)
        const between = (t) => panel.xOf(t, scrub.width)
        const a = between(ticks[0]) + 8, b = between(ticks[1]) - 8
        verify(b - a > 20, "room between the first two ticks")
        mouseDrag(scrub, a, scrub.height / 2, b - a, 0)
        mouseClick(findChild(panel, "showPastButton"))
        const errorBox = findChild(window, "errorBox")
        tryVerify(() => errorBox.opened, 20000, "the error is shown")
        verify(errorBox.informativeText.indexOf("holds no events from") >= 0, errorBox.informativeText)
        compare(window.runController.localization.past, "")
        compare(window.bottomTab, 5)
        errorBox.close()

        mouseDrag(scrub, 2, scrub.height / 2, scrub.width - 4, 0)  // from 2 px in: the edge snaps to the first event
        const show = findChild(panel, "showPastButton")
        verify(show.visible && show.enabled, "an event lane can be shown in the Localization tab")
        keyClick(Qt.Key_L, Qt.ControlModifier | Qt.ShiftModifier)
        tryCompare(window, "bottomTab", 3, 20000)

        const feed = window.runController.localization
        compare(feed.events.count, live.length)
        fuzzyCompare(at(feed.events, live.length - 1, "azimuth"), live[0].azimuth, 1e-9)  // first (oldest, bottom row)
        fuzzyCompare(at(feed.events, 0, "azimuth"), live[live.length - 1].azimuth, 1e-9)  // last (newest, top row)
        const bar = findChild(window, "pastEventsBar")
        tryVerify(() => bar.visible, 20000, "past events are labelled as such")
        const label = findChild(window, "pastEventsLabel").text
        verify(label.indexOf("isochron-tst-past.sqlite") >= 0 && label.indexOf("tracker.events") >= 0, label)
        verify(label.indexOf(panel.intervalFrom.toFixed(3)) >= 0 && label.indexOf(panel.intervalTo.toFixed(3)) >= 0, label)
        compare(findChild(window, "eventCountLabel").text, live.length + " past events")
        tryCompare(findChild(window, "eventList"), "count", live.length)
        // The tracker's bearing-time plot, titled as past, spans the interval; only the events were
        // recorded, and the note under its legend names the tracker streams that were not.
        const timePlot = findChild(window, "bearingTimePlot")
        tryVerify(() => timePlot.visible, 20000, "the bearing-time plot shows past events")
        fuzzyCompare(timePlot.timeFrom, panel.intervalFrom, 1e-9)
        fuzzyCompare(timePlot.timeTo, panel.intervalTo, 1e-9)
        compare(findChild(window, "bearingTimeTitle").text, "azimuth vs time, past")
        const note = findChild(window, "pastTracksNote")
        verify(note.visible && note.text.indexOf("tracker.tracks and tracker.background are not recorded") === 0, note.text)
        // Play looks for the audio in the archive: only the events were recorded into it, and it says so.
        const why = feed.play(0, -1)
        verify(why.indexOf("No audio for this past event: the archive holds no audio") === 0, why)
        // Back to live empties the view.
        mouseClick(findChild(window, "backToLiveButton"))
        compare(feed.past, "")
        compare(feed.events.count, 0)
        verify(!bar.visible)
        compare(findChild(window, "bearingTimeTitle").text, "azimuth vs time")
        verify(!note.visible)
    }

    Component { id: signalSpy; SignalSpy {} }
}
