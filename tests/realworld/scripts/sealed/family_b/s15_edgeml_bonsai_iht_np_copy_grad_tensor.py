# source: https://github.com/microsoft/EdgeML/issues/119 (fixed by https://github.com/microsoft/EdgeML/pull/120; Bonsai of edgeml_pytorch/graph/bonsai.py, hardThreshold/copySupport/crossEntropyLoss of edgeml_pytorch/utils.py and BonsaiTrainer of edgeml_pytorch/trainer/bonsaiTrainer.py as they were before commit bd49385, with the sigmaI annealing, test evaluation, result files and parameter saving left out,, random data instead of the USPS dataset, and np.percentile's interpolation= argument spelled method= for current numpy)
# style: optim
# cause: numpy_on_grad_tensor
# line: 135
# expert: utils.hardThreshold returns torch.tensor(A_, requires_grad=True), and runHardThrsd then calls np.copy on that tensor to keep the thresholded support, which goes through Tensor.__array__ -> numpy() on a tensor that requires grad and fails at the first IHT step. The fix merged for the issue (commit bd49385, later made __thrsdW.detach().clone()) copies the thresholded tensor with torch instead of np.copy: torch.FloatTensor(__thrsdW.detach().clone()).
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)


# ---- edgeml_pytorch/utils.py ----
def hardThreshold(A: torch.Tensor, s):
    '''
    Hard thresholds and modifies in-palce nn.Parameter A with sparsity s
    '''
    #PyTorch disallows numpy access/copy to tensors in graph.
    #.detach() creates a new tensor not attached to the graph.
    A_ = A.data.cpu().detach().numpy().ravel()
    if len(A_) > 0:
        th = np.percentile(np.abs(A_), (1 - s) * 100.0, method='higher')
        A_[np.abs(A_) < th] = 0.0
    A_ = A_.reshape(A.shape)
    return torch.tensor(A_, requires_grad=True)


def copySupport(src, dst):
    '''
    zero out entries in dst.data that are zeros in src tensor
    '''
    zeroSupport = (src.view(-1) == 0.0).nonzero()
    dst = dst.reshape(-1)
    dst[zeroSupport] = 0
    dst = dst.reshape(src.shape)
    del zeroSupport
    return dst


def crossEntropyLoss(logits, label):
    return F.cross_entropy(logits, label.argmax(dim=1))


# ---- edgeml_pytorch/graph/bonsai.py ----
class Bonsai(nn.Module):
    def __init__(self, numClasses, dataDimension, projectionDimension, treeDepth, sigma):
        super(Bonsai, self).__init__()
        self.dataDimension = dataDimension
        self.projectionDimension = projectionDimension
        self.numClasses = 1 if numClasses == 2 else numClasses
        self.treeDepth = treeDepth
        self.sigma = sigma
        self.internalNodes = 2**self.treeDepth - 1
        self.totalNodes = 2 * self.internalNodes + 1
        self.W = nn.Parameter(torch.randn([self.numClasses * self.totalNodes, self.projectionDimension]))
        self.V = nn.Parameter(torch.randn([self.numClasses * self.totalNodes, self.projectionDimension]))
        self.T = nn.Parameter(torch.randn([self.internalNodes, self.projectionDimension]))
        self.Z = nn.Parameter(torch.randn([self.projectionDimension, self.dataDimension]))

    def forward(self, X, sigmaI):
        X_ = torch.matmul(self.Z, torch.t(X)) / self.projectionDimension
        W_ = self.W[0:(self.numClasses)]
        V_ = self.V[0:(self.numClasses)]
        self.__nodeProb = []
        self.__nodeProb.append(1)
        score_ = self.__nodeProb[0] * (torch.matmul(W_, X_) *
                                       torch.tanh(self.sigma * torch.matmul(V_, X_)))
        for i in range(1, self.totalNodes):
            W_ = self.W[i * self.numClasses:((i + 1) * self.numClasses)]
            V_ = self.V[i * self.numClasses:((i + 1) * self.numClasses)]
            T_ = torch.reshape(self.T[int(np.ceil(i / 2.0) - 1.0)], [-1, self.projectionDimension])
            prob = (1 + ((-1)**(i + 1)) * torch.tanh(sigmaI * torch.matmul(T_, X_)))
            prob = prob / 2.0
            prob = self.__nodeProb[int(np.ceil(i / 2.0) - 1.0)] * prob
            self.__nodeProb.append(prob)
            score_ += self.__nodeProb[i] * (torch.matmul(W_, X_) *
                                            torch.tanh(self.sigma * torch.matmul(V_, X_)))
        self.score = score_
        self.X_ = X_
        return torch.t(self.score), self.X_


# ---- edgeml_pytorch/trainer/bonsaiTrainer.py ----
class BonsaiTrainer:
    def __init__(self, bonsaiObj, lW, lT, lV, lZ, sW, sT, sV, sZ, learningRate, device=None):
        self.bonsaiObj = bonsaiObj
        self.lW, self.lV, self.lT, self.lZ = lW, lV, lT, lZ
        self.sW, self.sV, self.sT, self.sZ = sW, sV, sT, sZ
        self.device = "cpu" if device is None else device
        self.learningRate = learningRate
        self.optimizer = self.optimizer()
        if self.sW > 0.99 and self.sV > 0.99 and self.sZ > 0.99 and self.sT > 0.99:
            self.isDenseTraining = True
        else:
            self.isDenseTraining = False

    def loss(self, logits, labels):
        regLoss = 0.5 * (self.lZ * (torch.norm(self.bonsaiObj.Z)**2) +
                         self.lW * (torch.norm(self.bonsaiObj.W)**2) +
                         self.lV * (torch.norm(self.bonsaiObj.V)**2) +
                         self.lT * (torch.norm(self.bonsaiObj.T))**2)
        marginLoss = crossEntropyLoss(logits, labels)
        loss = marginLoss + regLoss
        return loss, marginLoss, regLoss

    def optimizer(self):
        return torch.optim.Adam(self.bonsaiObj.parameters(), lr=self.learningRate)

    def runHardThrsd(self):
        '''
        Function to run the IHT routine on Bonsai Obj
        '''
        currW = self.bonsaiObj.W.data
        currV = self.bonsaiObj.V.data
        currZ = self.bonsaiObj.Z.data
        currT = self.bonsaiObj.T.data

        __thrsdW = hardThreshold(currW.cpu(), self.sW)
        __thrsdV = hardThreshold(currV.cpu(), self.sV)
        __thrsdZ = hardThreshold(currZ.cpu(), self.sZ)
        __thrsdT = hardThreshold(currT.cpu(), self.sT)

        self.bonsaiObj.W.data = torch.FloatTensor(
            __thrsdW).to(self.device)
        self.bonsaiObj.V.data = torch.FloatTensor(
            __thrsdV).to(self.device)
        self.bonsaiObj.Z.data = torch.FloatTensor(
            __thrsdZ).to(self.device)
        self.bonsaiObj.T.data = torch.FloatTensor(
            __thrsdT).to(self.device)

        self.__thrsdW = torch.FloatTensor(
            np.copy(__thrsdW)).to(self.device)
        self.__thrsdV = torch.FloatTensor(
            np.copy(__thrsdV)).to(self.device)
        self.__thrsdZ = torch.FloatTensor(
            np.copy(__thrsdZ)).to(self.device)
        self.__thrsdT = torch.FloatTensor(
            np.copy(__thrsdT)).to(self.device)

    def runSparseTraining(self):
        '''
        Function to run the Sparse Retraining routine on Bonsai Obj
        '''
        currW = self.bonsaiObj.W.data
        currV = self.bonsaiObj.V.data
        currZ = self.bonsaiObj.Z.data
        currT = self.bonsaiObj.T.data

        newW = copySupport(self.__thrsdW, currW)
        newV = copySupport(self.__thrsdV, currV)
        newZ = copySupport(self.__thrsdZ, currZ)
        newT = copySupport(self.__thrsdT, currT)

        self.bonsaiObj.W.data = newW
        self.bonsaiObj.V.data = newV
        self.bonsaiObj.Z.data = newZ
        self.bonsaiObj.T.data = newT

    def train(self, batchSize, totalEpochs, Xtrain, Ytrain):
        '''
        The Dense - IHT - Sparse Retrain Routine for Bonsai Training
        '''
        numIters = Xtrain.shape[0] / batchSize
        totalBatches = numIters * totalEpochs
        self.sigmaI = 1
        counter = 0
        trimlevel = 15 if self.bonsaiObj.numClasses > 2 else 5
        ihtDone = 0
        for i in range(totalEpochs):
            trainLoss = 0.0
            numIters = int(numIters)
            for j in range(numIters):
                batchX = Xtrain[j * batchSize:(j + 1) * batchSize]
                batchY = Ytrain[j * batchSize:(j + 1) * batchSize]
                batchY = np.reshape(batchY, [-1, self.bonsaiObj.numClasses])

                self.optimizer.zero_grad()
                logits, _ = self.bonsaiObj(batchX.to(self.device), self.sigmaI)
                batchLoss, _, _ = self.loss(logits, batchY.to(self.device))
                batchLoss.backward()
                self.optimizer.step()
                trainLoss += batchLoss.item()

                # Training routine involving IHT and sparse retraining
                if (counter >= int(totalBatches / 3.0) and
                    (counter < int(2 * totalBatches / 3.0)) and
                    counter % trimlevel == 0 and
                        self.isDenseTraining is False):
                    self.runHardThrsd()
                    ihtDone = 1
                elif ((ihtDone == 1 and counter >= int(totalBatches / 3.0) and
                       (counter < int(2 * totalBatches / 3.0)) and
                       counter % trimlevel != 0 and
                       self.isDenseTraining is False) or
                        (counter >= int(2 * totalBatches / 3.0) and
                            self.isDenseTraining is False)):
                    self.runSparseTraining()
                counter += 1
            print("Epoch %d: train loss %.4f" % (i, trainLoss / numIters))


numClasses, dataDimension, projectionDimension = 3, 10, 4
Xtrain = torch.randn(40, dataDimension)
Ytrain = torch.eye(numClasses)[torch.randint(0, numClasses, (40,))]

bonsaiObj = Bonsai(numClasses, dataDimension, projectionDimension, treeDepth=1, sigma=1.0)
bonsaiTrainer = BonsaiTrainer(bonsaiObj, lW=1e-3, lT=1e-3, lV=1e-3, lZ=1e-4,
                              sW=0.5, sT=0.5, sV=0.5, sZ=0.3, learningRate=0.01)
bonsaiTrainer.train(batchSize=8, totalEpochs=6, Xtrain=Xtrain, Ytrain=Ytrain)
