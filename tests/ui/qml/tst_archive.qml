// The archive in the real editor window: record a wire from its context menu or with Ctrl+R (one
// undo step, Ctrl+R again stops), a wire the archive cannot hold is refused with a toast, and after a
// run the Archive tab shows the stream io.archive_sink recorded, and an interval dragged on its lane
// replays through the graph.
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
        tryVerify(() => menu.opened, 2000, "the wire menu opens")
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
        tryVerify(() => toast.visible, 2000, "the refusal shows at the wire")
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
        tryVerify(() => panel.visible, 2000)
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
        const scrub = findChild(panel, "laneScrub")
        verify(scrub && scrub.width > 100, "the lane is shown")
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
}
