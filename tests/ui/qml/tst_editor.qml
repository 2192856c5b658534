// The main interactions, done with the mouse and keyboard in the real editor window: add a node
// (quick-add), connect two ports, refuse a bad wire, undo, run and stop, switch scheduler, reload plugins.
import QtQuick
import QtTest

TestCase {
    id: test
    name: "Editor"
    when: windowShown

    property var window: null
    property var document: window ? window.graphDocument : null
    property var canvas: window ? window.graphCanvas : null

    function init() {
        const component = Qt.createComponent("qrc:/qt/qml/Isochron/Ui/qml/Main.qml")
        verify(component.status === Component.Ready, component.errorString())
        window = component.createObject(null, {width: 1400, height: 900})
        verify(window)
        waitForRendering(window.contentItem)
        canvas.zoomAt(0, 0, 1)
        canvas.panX = 40
        canvas.panY = 60
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
    function dragWire(fromNode, fromPort, toNode, toPort) {
        const a = portPoint(fromNode, fromPort, true)
        const b = portPoint(toNode, toPort, false)
        mousePress(canvas, a.x, a.y)
        for (let i = 1; i <= 10; ++i) mouseMove(canvas, a.x + (b.x - a.x) * i / 10, a.y + (b.y - a.y) * i / 10)
        mouseRelease(canvas, b.x, b.y)
    }
    function quickAdd(x, y, search) {
        mouseDoubleClickSequence(canvas, x, y)
        const field = findChild(window, "quickAddField")
        tryVerify(() => field.activeFocus, 20000, "quick-add opens with the search field focused")
        for (const c of search) keyClick(c)
        keyClick(Qt.Key_Return)
    }

    function test_addNodeWithQuickAdd() {
        compare(document.nodeCount, 0)
        quickAdd(300, 200, "silence")
        tryCompare(document, "nodeCount", 1)
        const node = document.nodes.get("silence_detector")
        compare(node.typeName, "detect.silence_detector")
        verify(Math.abs(node.posX - (300 - canvas.panX)) <= 20, "placed at the pointer")
        compare(document.selection.nodes, ["silence_detector"])
    }

    function test_connectPortsByDragging() {
        document.addNode("generators.signal_generator", 0, 0)
        document.addNode("spectral.fft", 300, 0)
        waitForRendering(window.contentItem)
        dragWire("signal_generator", "out", "fft", "in")
        compare(document.edges.rowCount(), 1)
        compare(document.edges.wireInto("fft", "in").fromNode, "signal_generator")
        verify(document.nodes.get("fft").inputs[0].connected)
    }

    function test_refuseBadWireWithReason() {
        document.addNode("generators.signal_generator", 0, 0)
        document.addNode("spectral.magnitude", 300, 0)
        waitForRendering(window.contentItem)
        dragWire("signal_generator", "out", "magnitude", "spectrum")
        compare(document.edges.rowCount(), 0)
        const toast = findChild(canvas, "toast")
        tryVerify(() => toast.visible)
        verify(toast.text.indexOf("do not match") >= 0, toast.text)
    }

    function test_undoAndRedoWithKeys() {
        document.addNode("generators.signal_generator", 0, 0)
        document.addNode("io.null_sink", 300, 0)
        waitForRendering(window.contentItem)
        dragWire("signal_generator", "out", "null_sink", "in")
        compare(document.edges.rowCount(), 1)
        canvas.forceActiveFocus()
        keyClick(Qt.Key_Z, Qt.ControlModifier)
        compare(document.edges.rowCount(), 0)
        keyClick(Qt.Key_Z, Qt.ControlModifier)
        compare(document.nodeCount, 1)
        keyClick(Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
        keyClick(Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
        compare(document.nodeCount, 2)
        compare(document.edges.rowCount(), 1)
    }

    function test_deleteSelectionWithRubberBand() {
        document.addNode("generators.signal_generator", 0, 0)
        document.addNode("io.null_sink", 300, 0)
        document.addNode("io.null_sink", 300, 200)
        document.selection.clear()
        waitForRendering(window.contentItem)
        const a = canvas.toScreen(-20, -20), b = canvas.toScreen(520, 100)
        mousePress(canvas, a.x, a.y)
        for (let i = 1; i <= 5; ++i) mouseMove(canvas, a.x + (b.x - a.x) * i / 5, a.y + (b.y - a.y) * i / 5)
        mouseRelease(canvas, b.x, b.y)
        compare(document.selection.nodeCount, 2)
        keyClick(Qt.Key_Delete)
        compare(document.nodeCount, 1)
        compare(document.nodes.get("null_sink_2").nodeId, "null_sink_2")
    }

    function test_runAndStop() {
        window.openFile(sourceDirectory + "/samples/spectrum-watch.isograph.json")
        compare(document.nodeCount, 12)
        const runButton = findChild(window, "runButton")
        mouseClick(runButton)
        tryCompare(window.runController, "state", "running", 20000)
        tryVerify(() => window.runController.telemetry.latest("engine/samples_per_s") > 0, 20000, "telemetry arrives")
        const stopButton = findChild(window, "stopButton")
        mouseClick(stopButton)
        tryCompare(window.runController, "state", "stopped", 20000)
        verify(window.runController.message.indexOf("Stopped") === 0)
    }

    function test_switchSchedulerWhileRunning() {
        window.openFile(sourceDirectory + "/samples/spectrum-watch.isograph.json")
        window.runController.start()
        tryCompare(window.runController, "state", "running", 20000)
        compare(window.runController.schedulerText, "df")
        const chooser = findChild(window, "runScheduler")
        const index = chooser.model.indexOf("fifo")
        verify(index >= 0)
        mouseClick(chooser)
        tryVerify(() => chooser.popup.opened, 20000, "the scheduler list opens")
        const list = chooser.popup.contentItem
        list.positionViewAtIndex(index, ListView.Contain)
        waitForRendering(list)
        mouseClick(list.itemAtIndex(index))
        tryCompare(window.runController, "schedulerText", "fifo", 20000)
        tryCompare(window.runController, "state", "running", 20000)
        compare(document.schedulerName, "fifo")
        compare(window.runController.telemetry.runCount, 2)
    }

    function test_reloadPluginsShortcutSaysWhatItDid() {
        canvas.forceActiveFocus()
        keyClick(Qt.Key_R, Qt.ControlModifier | Qt.ShiftModifier)
        const toast = findChild(canvas, "pluginReloadToast")
        verify(toast)
        tryVerify(() => toast.visible)
        verify(toast.text.indexOf("No plugins are loaded") >= 0, toast.text)
    }
}
